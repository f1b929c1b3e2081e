import { Alert, Pill, Stack, TagsInput, type TagsInputProps } from '@mantine/core';
import { checkScope, unusableGrants } from './scope-checks';
import type { ResourceChoice } from './scope-suggestions';

interface ScopesInputProps extends Omit<TagsInputProps, 'data' | 'value' | 'renderPill'> {
  value?: string[];
  data: TagsInputProps['data'];
  /** The resources the admin can see: a resource scope's pill shows the resource's name. */
  resources: readonly ResourceChoice[];
}

/**
 * The scopes box: each scope is checked as it is added, its pill naming the resource and flagged
 * (red, with the reason as its description) when the gateway would refuse it or it names nothing
 * the admin can see; below, a warning for each grant that cannot be used as given.
 */
export function ScopesInput({ value = [], resources, ...props }: ScopesInputProps) {
  const checks = new Map(value.map((scope) => [scope, checkScope(scope, resources)]));
  const warnings = unusableGrants(value);
  const problems = [...checks.values()].filter((check) => check.problem);
  return (
    <Stack gap={4}>
      <TagsInput
        {...props}
        value={value}
        renderPill={({ value: scope, onRemove }) => {
          const check = scope ? checks.get(scope) : undefined;
          return (
            <Pill
              key={scope}
              withRemoveButton
              onRemove={onRemove}
              title={check?.problem ?? scope}
              aria-invalid={check?.problem ? true : undefined}
              style={
                check?.problem
                  ? {
                      background: 'var(--mantine-color-red-light)',
                      color: 'var(--mantine-color-red-light-color)',
                    }
                  : undefined
              }
              removeButtonProps={{ 'aria-label': `Remove ${check?.label ?? scope}` }}
            >
              {check?.problem ? '⚠ ' : ''}
              {check?.label ?? scope}
            </Pill>
          );
        }}
      />
      {problems.length > 0 && (
        <Alert color="red" variant="light" p="xs" aria-label="Scopes the gateway would refuse">
          {problems.map((check) => (
            <div key={check.scope}>
              {check.scope}: {check.problem}
            </div>
          ))}
        </Alert>
      )}
      {warnings.length > 0 && (
        <Alert color="yellow" variant="light" p="xs" aria-label="Scopes that cannot be used">
          {warnings.map((warning) => (
            <div key={warning}>{warning}</div>
          ))}
        </Alert>
      )}
    </Stack>
  );
}
