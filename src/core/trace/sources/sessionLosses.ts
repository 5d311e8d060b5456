import type { ReadContext } from './types';

/** Sessions named one by one; past that, one line with the total. */
const SHOWN = 3;

/**
 * The sessions a store holds and could not give, said out loud and counted (a store holds many, so the importer's
 * "no session could be read from it" covers only the case where all are lost):
 * - `skip`: one session unreadable in itself (malformed, an unknown shape, none of its messages readable);
 * - `lose`: one lost to a damaged database (its rows fail to read), counted in the damage line;
 * - `damaged`: damage that cost no session known by its id (a listing that had to fall back to an index).
 */
export class SessionLosses {
  private skipped = 0;
  private damage: string | undefined;
  private readonly lost: string[] = [];

  constructor(
    private readonly ctx: Pick<ReadContext, 'warn'>,
    private readonly path: string,
  ) {}

  skip(label: string, why: string): void {
    if (++this.skipped <= SHOWN) this.ctx.warn(`${this.path}: ${label}: ${why}; skipped`);
  }

  lose(label: string, error: unknown): void {
    if (!this.lost.includes(label)) this.lost.push(label);
    this.damaged(error);
  }

  damaged(error: unknown): void {
    this.damage ??= error instanceof Error ? error.message : String(error);
  }

  /** The closing lines, once every session was tried. */
  done(kept: number): void {
    if (this.skipped > SHOWN) this.ctx.warn(`${this.path}: ${this.skipped} sessions skipped in all`);
    if (this.damage === undefined) return;
    if (this.lost.length === 0) {
      this.ctx.warn(`${this.path}: damaged database (${this.damage}); the sessions that could be read are kept`);
      return;
    }
    const names = this.lost.slice(0, SHOWN).join(', ') + (this.lost.length > SHOWN ? ', …' : '');
    this.ctx.warn(
      `${this.path}: damaged database (${this.damage}); ${this.lost.length} session(s) lost (${names}), the ${kept} that could be read are kept`,
    );
  }
}
