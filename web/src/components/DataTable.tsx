import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './DataTable.module.css';

export interface Column<Row> {
  /** The column header; on a phone it labels the value in each row. */
  header: string;
  cell: (row: Row) => ReactNode;
}

/** A table of rows that stacks into labelled blocks on a narrow screen. */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
}: {
  /** The table's accessible name, e.g. `Users`. */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
}) {
  return (
    <Table className={classes.table} aria-label={label} highlightOnHover verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.header}>{column.header}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)}>
            {columns.map((column) => (
              <Table.Td key={column.header} data-label={column.header}>
                {column.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
