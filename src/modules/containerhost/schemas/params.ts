import { type Static, Type } from 'typebox';
import { SearchText, Uuid } from '../../../core/http-schemas.js';
import { PaginationQueryFields } from '../../../core/pagination.js';

/** Path parameters and the list query of the routes under `/api/containerhost/nodes/:nodeId`. */

const NodeId = Uuid('node id');
export const NodeParams = Type.Object({ nodeId: NodeId });

// Engine ids are 64 hex characters; names longer than that are addressed by id. (The router itself
// refuses path segments over 100 characters before validation could name the field.)
const Key = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });
export const ContainerParams = Type.Object({ nodeId: NodeId, containerId: Key('container id or name') });
export const ContainerNameParams = Type.Object({
  nodeId: NodeId,
  containerName: Key('container name (or id)'),
});
export const NetworkParams = Type.Object({ nodeId: NodeId, networkId: Key('network id or name') });
export const VolumeParams = Type.Object({ nodeId: NodeId, name: Key('volume name') });

// In the inspect routes the key is the last segment: an empty one is the listing route itself
// (trailing slashes are ignored), so these keys carry no minimum length.
const LastKey = (description: string) => Type.String({ maxLength: 64, description });
export const InspectContainerParams = Type.Object({
  nodeId: NodeId,
  containerId: LastKey('container id or name'),
});
export const InspectNetworkParams = Type.Object({ nodeId: NodeId, networkId: LastKey('network id or name') });
export const InspectVolumeParams = Type.Object({ nodeId: NodeId, name: LastKey('volume name') });
export const ImageParams = Type.Object({ nodeId: NodeId, imageId: LastKey('image id or reference') });

export const ListQuery = Type.Object({
  ...PaginationQueryFields,
  q: SearchText(),
});

export type ListQuery = Static<typeof ListQuery>;
