import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  type GraphQLResolveInfo,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

type Info = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments' | 'variableValues'>;

/** False for a selection the operation leaves out (`@skip(if: true)`, `@include(if: false)`). */
function kept(sel: SelectionNode, variables: Info['variableValues']): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, sel, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, sel, variables)?.if !== false;
}

/**
 * The fields the operation selects under `path` from the resolver's field (fragments and inline
 * fragments followed, @skip and @include honoured), nested ones as `owner.id`: a resolver reads only
 * what is asked for.
 */
export function selectedUnder(info: Info, path: string[]): Set<string> {
  const out = new Set<string>();
  const walk = (set: SelectionSetNode | undefined, depth: number, prefix: string) => {
    for (const sel of set?.selections ?? []) {
      if (!kept(sel, info.variableValues)) continue;
      if (sel.kind === 'FragmentSpread') walk(info.fragments[sel.name.value]?.selectionSet, depth, prefix);
      else if (sel.kind === 'InlineFragment') walk(sel.selectionSet, depth, prefix);
      else if (depth < path.length) {
        if (sel.name.value === path[depth]) walk(sel.selectionSet, depth + 1, prefix);
      } else {
        out.add(prefix + sel.name.value);
        if (sel.selectionSet) walk(sel.selectionSet, depth, `${prefix}${sel.name.value}.`);
      }
    }
  };
  for (const node of info.fieldNodes) walk(node.selectionSet, 0, '');
  return out;
}
