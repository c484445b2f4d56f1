/** The people named in an `int[]` column, in its order, as JSON `[{id, name}]` (for a select list). */
export const mentionsJson = (column: string) =>
  `coalesce((select json_agg(json_build_object('id', m.id, 'name', m.name) order by array_position(${column}, m.id))
              from employee m where m.id = any(${column})), '[]'::json)`;
