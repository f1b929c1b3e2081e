import { Tabs } from '@mantine/core';
import { useMatch, useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { GroupsPanel } from './GroupsPanel';
import { UsersPanel } from './UsersPanel';

/** Users (`/users`) and groups (`/users/groups`), each a tab with its own address. */
export default function UsersPage() {
  const navigate = useNavigate();
  const tab = useMatch('/users/groups') ? 'groups' : 'users';
  return (
    <>
      <PageHeader
        title="Users and groups"
        description="Accounts sign in; their group's scopes decide what they may do."
      />
      <Tabs
        value={tab}
        onChange={(value) => navigate(value === 'groups' ? '/users/groups' : '/users')}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="users">Users</Tabs.Tab>
          <Tabs.Tab value="groups">Groups</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users">
          <UsersPanel />
        </Tabs.Panel>
        <Tabs.Panel value="groups">
          <GroupsPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
