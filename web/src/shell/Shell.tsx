import { AppShell, Burger, Button, Group, Menu, Text, Title, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { isWithinArea, useConsoleAreas } from '../areas/area';
import { useCurrentUser, useSession } from '../auth/session';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { Navigation } from './Navigation';
import { useVisibleAreas } from './visible-areas';

/** The frame of every signed-in page: header, the `nav` landmark, and the page in `main`. */
export function Shell() {
  const [navOpened, { toggle, close }] = useDisclosure(false);
  const user = useCurrentUser();
  const { signOut } = useSession();
  const areas = useVisibleAreas();
  const everyArea = useConsoleAreas();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // Signing out of a page I may not open would bring whoever signs in next back to it: leave it for
  // the home page, which everyone may open, first.
  const leave = async () => {
    const forbidden = (area: (typeof everyArea)[number]) =>
      isWithinArea(area, pathname) && !areas.includes(area);
    if (everyArea.some(forbidden)) navigate('/', { replace: true });
    await signOut();
  };
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={navOpened ? 'Close navigation' : 'Open navigation'}
            />
            <UnstyledButton component={Link} to="/">
              <Title order={2} size="h4">
                infragate
              </Title>
            </UnstyledButton>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ColorSchemeToggle />
            <Menu position="bottom-end">
              <Menu.Target>
                <Button variant="default" aria-label={`Account menu of ${user.email}`}>
                  <Text size="sm" truncate maw={160}>
                    {user.name}
                  </Text>
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{user.email}</Menu.Label>
                <Menu.Item component={Link} to="/account">
                  My account
                </Menu.Item>
                <Menu.Item onClick={() => void leave()}>Sign out</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <Navigation areas={areas} onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
