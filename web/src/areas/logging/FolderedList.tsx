import { Grid } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { type FolderChoice, FolderTree } from './FolderTree';
import type { TreeKind } from './queries';

/** The `folderId` filter of a list for the folder chosen in the tree. */
export function folderFilter(choice: FolderChoice): { folderId?: string } {
  return choice === 'all' ? {} : { folderId: choice };
}

/** The folder a new item goes in: the one chosen, else the top level. */
export function folderForNew(choice: FolderChoice): string | null {
  return choice === 'all' || choice === 'root' ? null : choice;
}

/** A folder tree beside the list of what its folders hold (stacked on a phone). */
export function FolderedList({
  kind,
  children,
}: {
  kind: TreeKind;
  children: (folder: FolderChoice) => ReactNode;
}) {
  const [folder, setFolder] = useState<FolderChoice>('all');
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <FolderTree kind={kind} selected={folder} onSelect={setFolder} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>{children(folder)}</Grid.Col>
    </Grid>
  );
}
