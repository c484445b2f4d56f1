import type WebSocket from 'ws';
import type { EventEnvelope } from '@intranet/schema/events';

/**
 * Close codes a socket is closed with when its session changes. graphql-ws clients do not retry
 * on 4401 (the session is over: sign in again); on 4000 they reconnect, and the new connection
 * authenticates with the session's current role and state.
 */
export const SESSION_ENDED = { code: 4401, reason: 'Session ended' } as const;
export const SESSION_CHANGED = { code: 4000, reason: 'Session changed' } as const;

/** What one open GraphQL WebSocket is: whose, under which session, with how many live operations. */
export interface LiveSocket {
  socket: WebSocket;
  token: string;
  sessionId: string;
  employeeId: number;
  /** Operations running on the socket now (subscriptions, and queries still being answered). */
  operations(): number;
}

export interface SocketLimits {
  socketsPerUser: number;
  operationsPerSocket: number;
  operationsPerUser: number;
}

/**
 * The GraphQL WebSockets open on this instance, by session and by employee, so that ending a
 * session (on any instance: the event reaches every instance's live feed) closes its sockets here
 * at once, and so that one user cannot hold unbounded sockets or subscriptions.
 */
export class LiveSockets {
  private readonly byEmployee = new Map<number, Set<LiveSocket>>();

  constructor(readonly limits: SocketLimits) {}

  /** Registers an authenticated socket; false when its user already has the most sockets allowed. */
  add(entry: LiveSocket): boolean {
    let set = this.byEmployee.get(entry.employeeId);
    if (set && set.size >= this.limits.socketsPerUser) return false;
    if (!set) this.byEmployee.set(entry.employeeId, (set = new Set()));
    set.add(entry);
    return true;
  }

  remove(entry: LiveSocket): void {
    const set = this.byEmployee.get(entry.employeeId);
    if (!set) return;
    set.delete(entry);
    if (!set.size) this.byEmployee.delete(entry.employeeId);
  }

  /** Why the operations now running (the newest one included) are too many, or null when they are not. */
  operationRefusal(entry: LiveSocket): 'socket' | 'user' | null {
    if (entry.operations() > this.limits.operationsPerSocket) return 'socket';
    let total = 0;
    for (const s of this.byEmployee.get(entry.employeeId) ?? []) total += s.operations();
    return total > this.limits.operationsPerUser ? 'user' : null;
  }

  /** Every open socket (the periodic session check walks them). */
  *all(): Iterable<LiveSocket> {
    for (const set of this.byEmployee.values()) yield* set;
  }

  close(entry: LiveSocket, how: { code: number; reason: string }): void {
    this.remove(entry);
    entry.socket.close(how.code, how.reason);
  }

  private closeWhere(
    employeeId: number,
    how: { code: number; reason: string },
    match: (s: LiveSocket) => boolean = () => true,
  ): void {
    for (const s of [...(this.byEmployee.get(employeeId) ?? [])]) if (match(s)) this.close(s, how);
  }

  /**
   * Applies committed events: a session ended or every session of an employee revoked closes those
   * sockets for good; a change of role or status makes that employee's sockets reconnect.
   */
  apply(batch: EventEnvelope[]): void {
    for (const e of batch) {
      if (e.aggregateType !== 'employee') continue;
      const p = e.payload as { employeeId?: number; sessionId?: string; changed?: string[]; employee?: { id: number } };
      if (e.type === 'employee.session_ended' && p.employeeId !== undefined)
        this.closeWhere(p.employeeId, SESSION_ENDED, (s) => s.sessionId === p.sessionId);
      else if (e.type === 'employee.sessions_revoked' && p.employeeId !== undefined)
        this.closeWhere(p.employeeId, SESSION_ENDED);
      else if (e.type === 'employee.updated' && p.employee && p.changed?.some((f) => f === 'role' || f === 'status'))
        this.closeWhere(p.employee.id, SESSION_CHANGED);
    }
  }
}
