import { Button, FileButton, Group, Textarea, type TextareaProps } from '@mantine/core';
import { notifyError } from './notify';

interface TextFileInputProps extends Omit<TextareaProps, 'onChange' | 'value'> {
  label: string;
  value?: string;
  onChange?: (value: string) => void;
  /** File types the picker offers, e.g. `.pem,.crt,.key`. */
  accept?: string;
}

/**
 * A text field for something people paste or have as a file (a PEM certificate, a key): they paste
 * it, or pick the file and its text fills the field. Errors show under the field as on any input.
 */
export function TextFileInput({ label, value, onChange, accept, ...textareaProps }: TextFileInputProps) {
  const load = async (file: File | null) => {
    if (!file) return;
    try {
      onChange?.(await file.text());
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <div>
      <Textarea
        label={label}
        value={value ?? ''}
        onChange={(event) => onChange?.(event.currentTarget.value)}
        autosize
        minRows={3}
        maxRows={8}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        {...textareaProps}
      />
      <Group gap="xs" mt={6}>
        <FileButton onChange={load} accept={accept}>
          {(props) => (
            <Button {...props} size="xs" variant="default" aria-label={`Choose file for ${label}`}>
              Choose file…
            </Button>
          )}
        </FileButton>
      </Group>
    </div>
  );
}
