import type { ApolloServerPlugin } from '@apollo/server';
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  valueFromASTUntyped,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { AppContext } from './context.js';

/** A list field whose size no `limit` argument says: how many items it is taken to hold. */
const UNSAID_LIST_SIZE = 10;
/** A `limit` argument the query leaves out and the schema gives no default: the platform's page. */
const UNSAID_LIMIT = 50;
/** Lists the server bounds itself, by `Type.field`. */
const BOUNDED: Record<string, number> = {
  'BlogComment.replies': 10,
  'Notification.actors': 3,
  'BlogPostView.likers': 20, // LIKERS_SHOWN (blog-post.rules.ts)
};

/**
 * How many values an operation can answer at most: every field counts once per item of every list
 * around it. A list's size is the `limit` of the field that returns it (or of the page it is the
 * items of), else its known bound, else UNSAID_LIST_SIZE. graphql-armor's cost limit counts each
 * field once whatever the list sizes, so 15 aliases of a paged list passed it and answered 165 MB.
 */
export function listCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): number {
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return 0;
  const visiting = new Set<string>();

  const walk = (set: SelectionSetNode, type: GraphQLNamedType, times: number, pageSize: number | null): number => {
    let total = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const on = sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) ?? type) : type;
        total += walk(sel.selectionSet, on, times, pageSize);
        continue;
      }
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments[sel.name.value];
        if (!frag || visiting.has(frag.name.value)) continue; // a cycle is the validator's to refuse
        visiting.add(frag.name.value);
        total += walk(frag.selectionSet, schema.getType(frag.typeCondition.name.value) ?? type, times, pageSize);
        visiting.delete(frag.name.value);
        continue;
      }
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      const field: GraphQLField<unknown, unknown> | undefined = type.getFields()[sel.name.value];
      if (!field) continue;
      const limit = limitOf(field, sel.arguments ?? [], variables);
      const list = isListType(getNullableType(field.type));
      const size = list ? (limit ?? pageSize ?? BOUNDED[`${type.name}.${field.name}`] ?? UNSAID_LIST_SIZE) : 1;
      total += times * (list && !sel.selectionSet ? size : 1);
      if (sel.selectionSet)
        total += walk(sel.selectionSet, getNamedType(field.type), times * size, list ? null : limit);
    }
    return total;
  };
  return walk(operation.selectionSet, root, 1, null);
}

/** The field's `limit` as the operation gives it (literal or variable), its default, or null when it has none. */
function limitOf(
  field: GraphQLField<unknown, unknown>,
  args: readonly { name: { value: string }; value: Parameters<typeof valueFromASTUntyped>[0] }[],
  variables: Record<string, unknown>,
): number | null {
  const def = field.args.find((a) => a.name === 'limit');
  if (!def) return null;
  const given = args.find((a) => a.name.value === 'limit');
  const value = given ? valueFromASTUntyped(given.value, variables) : undefined;
  const n = typeof value === 'number' ? value : typeof def.defaultValue === 'number' ? def.defaultValue : UNSAID_LIMIT;
  // The service refuses a limit out of its range; the cost counts it as asked.
  return Math.max(1, Math.floor(n));
}

/** Apollo plugin: an operation whose listCost exceeds `max` is refused before it runs (HTTP and WebSocket alike). */
export function listCostPlugin(max: number): ApolloServerPlugin<AppContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          if (!operation) return;
          const fragments: Record<string, FragmentDefinitionNode> = {};
          for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
          const cost = listCost(schema, operation, fragments, request.variables ?? {});
          if (cost > max) {
            throw new GraphQLError(
              `一度に求める件数が多すぎます（推定 ${cost.toLocaleString('ja-JP')} 件、上限 ${max.toLocaleString('ja-JP')} 件）。limit を小さくするか、別名（alias）の数を減らしてください。`,
              {
                extensions: {
                  code: 'BAD_USER_INPUT',
                  fieldErrors: [],
                  listCost: cost,
                  maxListCost: max,
                  http: { status: 400 },
                },
              },
            );
          }
        },
      };
    },
  };
}
