/** Where a profile opens (a card, a mention, the bell): /profile/{id}, or /profile/sp/{id} in the narrow layout. */
export const profilePath = (id: number, narrow: boolean) => (narrow ? `/profile/sp/${id}` : `/profile/${id}`);
