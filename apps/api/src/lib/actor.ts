// Apart from context.ts, which re-exports it: session-cache.ts remembers actors, and context.ts names
// the SessionCache, so a type import of context.ts from session-cache.ts would close a circle.

/** The signed-in caller, as the auth hook found them for this request. */
export interface Actor {
  userId: number;
  email: string;
  isStaff: boolean;
  sessionId: string;
}
