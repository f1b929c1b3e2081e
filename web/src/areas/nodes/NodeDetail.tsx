import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import { notifySuccess } from '../../components/notify';
import { EditAndRemove, RecordPage } from '../../components/RecordPage';
import { Section } from '../../components/Section';
import { NodeDialog } from './NodeDialog';
import { NODES_KEY, type StorageNode } from './queries';
import { UploadForm } from './UploadForm';
import { UploadList } from './UploadList';
import { UploadStatus } from './UploadStatus';
import { useNodeUpload } from './use-node-upload';

function NodeActions({ node }: { node: StorageNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const remove = async () => {
    await call(api.DELETE('/api/nodes/{id}', { params: { path: { id: node.id } } }));
    notifySuccess(`Removed the node ${node.name}.`);
    await queryClient.invalidateQueries({ queryKey: NODES_KEY });
    navigate('/nodes');
  };
  return (
    <>
      <EditAndRemove
        onEdit={() => setEditing(true)}
        verb="Remove"
        title={`Remove the node ${node.name}?`}
        message="Its open uploads are aborted and their data removed. Files already uploaded stay in the directory."
        onRemove={remove}
      />
      {editing && <NodeDialog node={node} onClose={() => setEditing(false)} />}
    </>
  );
}

/** One node (`/nodes/:id`): upload a file into it, and its uploads with their progress. */
export function NodeDetail() {
  const { id = '' } = useParams();
  const canManage = mayUse(useCurrentUser().scopes, 'nodes:manage', id);
  const uploading = useNodeUpload(id);
  const node = useQuery({
    queryKey: [...NODES_KEY, id],
    queryFn: () => call(api.GET('/api/nodes/{id}', { params: { path: { id } } })),
  });
  return (
    <RecordPage
      back={{ to: '/nodes', label: 'All nodes' }}
      query={node}
      header={({ data }) => ({
        title: data.name,
        description: data.rootPath,
        action: canManage && <NodeActions node={data} />,
      })}
    >
      {() => (
        <>
          {canManage && (
            <Section title="Upload a file">
              <UploadForm onStart={uploading.start} busy={uploading.active?.state === 'sending'} />
              <UploadStatus active={uploading.active} />
            </Section>
          )}
          <Section title="Uploads">
            <UploadList nodeId={id} uploading={uploading} canManage={canManage} />
          </Section>
        </>
      )}
    </RecordPage>
  );
}
