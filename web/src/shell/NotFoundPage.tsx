import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link } from 'react-router';

/** Any address the console has no page for. */
export function NotFoundPage() {
  useEffect(() => {
    document.title = 'Not found · infragate';
  }, []);
  return (
    <Stack>
      <Title order={1}>Page not found</Title>
      <Text>There is no page at this address.</Text>
      <Anchor component={Link} to="/">
        Go to the start page
      </Anchor>
    </Stack>
  );
}
