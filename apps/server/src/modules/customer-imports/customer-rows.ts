// Which customer an earlier row of the file had, for every customer the import has touched so far:
// an open-addressing hash table in two typed arrays (8 bytes a slot, at most half full: 16 MB for
// a million customers), so a million-row file costs megabytes, not the hundreds a Map of its
// emails and phones would. Ids past 32 bits (none in practice) go to a Map beside it.
export class CustomerRows {
  private ids = new Uint32Array(1 << 12);
  private rows = new Int32Array(1 << 12);
  private size = 0;
  private large = new Map<number, number>();

  /** The first row that had this customer, if any. */
  get(id: number): number | undefined {
    if (id > 0xffffffff) return this.large.get(id);
    const mask = this.ids.length - 1;
    for (let i = hash(id) & mask; ; i = (i + 1) & mask) {
      const at = this.ids[i]!;
      if (at === 0) return undefined;
      if (at === id) return this.rows[i];
    }
  }

  /** Records the row for the customer unless an earlier row already had them. */
  add(id: number, row: number): void {
    if (id > 0xffffffff) {
      if (!this.large.has(id)) this.large.set(id, row);
      return;
    }
    if (this.size * 2 >= this.ids.length) this.grow();
    const mask = this.ids.length - 1;
    for (let i = hash(id) & mask; ; i = (i + 1) & mask) {
      const at = this.ids[i]!;
      if (at === id) return;
      if (at === 0) {
        this.ids[i] = id;
        this.rows[i] = row;
        this.size++;
        return;
      }
    }
  }

  private grow(): void {
    const { ids, rows } = this;
    this.ids = new Uint32Array(ids.length * 2);
    this.rows = new Int32Array(ids.length * 2);
    this.size = 0;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== 0) this.add(ids[i]!, rows[i]!);
  }
}

/** Spreads consecutive ids (customer ids are positive integers) over the table. */
const hash = (id: number) => Math.imul(id, 0x9e3779b1) >>> 0;
