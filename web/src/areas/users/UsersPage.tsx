import { Tabs } from '@mantine/core';
import { useMatch, useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { GroupsPanel } from './GroupsPanel';
import { IdentityProvidersPanel } from './IdentityProvidersPanel';
import { UsersPanel } from './UsersPanel';

const TABS = {
  users: '/users',
  groups: '/users/groups',
  'identity-providers': '/users/identity-providers',
} as const;
type Tab = keyof typeof TABS;

/** Users (`/users`), groups (`/users/groups`) and single sign-on providers, each a tab with its own address. */
export default function UsersPage() {
  const navigate = useNavigate();
  const groups = useMatch(TABS.groups);
  const providers = useMatch(TABS['identity-providers']);
  let tab: Tab = 'users';
  if (groups) tab = 'groups';
  else if (providers) tab = 'identity-providers';
  return (
    <>
      <PageHeader
        title="Users and groups"
        description="Accounts sign in; their group's scopes decide what they may do."
      />
      <Tabs value={tab} onChange={(value) => navigate(TABS[(value ?? 'users') as Tab])} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="users">Users</Tabs.Tab>
          <Tabs.Tab value="groups">Groups</Tabs.Tab>
          <Tabs.Tab value="identity-providers">Identity providers</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users">
          <UsersPanel />
        </Tabs.Panel>
        <Tabs.Panel value="groups">
          <GroupsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="identity-providers">
          <IdentityProvidersPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
