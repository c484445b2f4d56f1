import type { Page } from 'playwright-core';

/** GraphQL with the page's session (the app's own endpoint and headers); throws on errors. */
export async function ask<T>(page: Page, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return page.evaluate(
    async ([q, v]) => {
      const res = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true' },
        body: JSON.stringify({ query: q, variables: v }),
      });
      const body = (await res.json()) as { data: unknown; errors?: unknown };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    },
    [query, variables] as const,
  ) as Promise<T>;
}
