import { describe, expect, it } from 'vitest';
import { splitStatements } from '../../src/db/migrate.js';

describe('splitStatements (one statement per query for both drivers)', () => {
  it('splits at each semicolon that ends a line', () => {
    const script = 'create table a (\n  id int\n);\ncreate index a_idx on a (id);\n';
    expect(splitStatements(script)).toEqual([
      'create table a (\n  id int\n);',
      'create index a_idx on a (id);',
    ]);
  });

  it('splits at a semicolon followed only by spaces', () => {
    expect(splitStatements('select 1;   \nselect 2;')).toEqual(['select 1;', 'select 2;']);
  });

  it('keeps a semicolon inside a line within its statement', () => {
    expect(splitStatements("insert into t values ('a;b');\nselect 1;")).toEqual([
      "insert into t values ('a;b');",
      'select 1;',
    ]);
  });

  it('keeps a $$ body whole even where its lines end with semicolons', () => {
    const body =
      'create function f() returns trigger as $$\nbegin\n  return new;\nend;\n$$ language plpgsql;';
    expect(splitStatements(`${body}\nselect 1;`)).toEqual([body, 'select 1;']);
  });

  it('treats a $$ body that opens and closes on one line as ordinary text', () => {
    expect(splitStatements('do $$ begin perform 1; end $$;\nselect 1;')).toEqual([
      'do $$ begin perform 1; end $$;',
      'select 1;',
    ]);
  });

  it('drops comment lines between statements and keeps those inside one', () => {
    const script = '-- the table\ncreate table a (\n  -- the key\n  id int\n);\n-- the end\n';
    expect(splitStatements(script)).toEqual(['create table a (\n  -- the key\n  id int\n);']);
  });

  it('keeps a last statement that has no semicolon', () => {
    expect(splitStatements('select 1;\nselect 2\n')).toEqual(['select 1;', 'select 2']);
  });

  it('answers nothing for a script of comments and blank lines', () => {
    expect(splitStatements('-- nothing yet\n\n  \n')).toEqual([]);
  });
});
