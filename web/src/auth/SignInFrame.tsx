import { Center, Paper, Stack, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';

/** The centred card of the pages before sign-in (sign-in itself, first-start setup). */
export function SignInFrame({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · infragate`;
  }, [title]);
  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <Stack>
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
