import { Button, Code, CopyButton, Group } from '@mantine/core';

/** A value someone copies elsewhere (a DNS record, a URL): shown as code, with a Copy button. */
export function CopyableValue({
  value,
  label,
}: {
  value: string;
  /** Names the copy button: `Copy <label>`. */
  label: string;
}) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" component="span">
      <Code style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={copy}
            aria-label={`Copy ${label}`}
            style={{ flexShrink: 0 }}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
