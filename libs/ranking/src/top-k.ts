/**
 * The k largest scores of a dense score array, best first, as [slot, score] pairs: a bounded
 * min-heap, so a search over 100k documents does not sort them all.
 */
export function topK(scores: Float64Array, k: number, include: (slot: number) => boolean = () => true): [number, number][] {
  const heap: [number, number][] = [];
  const less = (a: [number, number], b: [number, number]) => a[1] < b[1] || (a[1] === b[1] && a[0] > b[0]);
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l], heap[m])) m = l;
      if (r < heap.length && less(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (let slot = 0; slot < scores.length; slot++) {
    const score = scores[slot];
    // Most documents lose to the heap's weakest (a tie too: slots ascend, the earlier stays), so
    // that test comes before the filter and the allocation.
    if (!(score > 0) || (heap.length === k && (k === 0 || score <= heap[0][1]))) continue;
    if (!include(slot)) continue;
    const entry: [number, number] = [slot, score];
    if (heap.length < k) {
      heap.push(entry);
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!less(heap[i], heap[parent])) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
    } else {
      heap[0] = entry;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}
