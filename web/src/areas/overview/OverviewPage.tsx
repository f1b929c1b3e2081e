import { Box, SimpleGrid, Stack } from '@mantine/core';
import { mayAccess } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import { PageHeader } from '../../components/PageHeader';
import { overviewSections } from './sections';

/** What needs attention now, one section per kind of trouble the user may see. */
export default function OverviewPage() {
  const { scopes } = useCurrentUser();
  const sections = overviewSections.filter((section) => mayAccess(scopes, section));
  return (
    <Stack>
      <PageHeader title="Overview" description="What needs attention now." />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {sections.map(({ id, Section, wide }) => (
          <Box key={id} style={wide ? { gridColumn: '1 / -1' } : undefined}>
            <Section />
          </Box>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
