/**
 * The `k` smallest items in order, without sorting the rest: a page of a broad query needs ten
 * hits of tens of thousands, and a bounded heap costs about one comparison per item instead of a
 * full sort's twenty.
 */
export function smallest<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  if (k * 4 >= items.length) return [...items].sort(compare).slice(0, k);
  // A max-heap of the k smallest seen so far: its root is the one to beat.
  const heap: T[] = [];
  const siftUp = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(heap[i]!, heap[parent]!) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const siftDown = (i: number) => {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let largest = i;
      if (left < heap.length && compare(heap[left]!, heap[largest]!) > 0) largest = left;
      if (right < heap.length && compare(heap[right]!, heap[largest]!) > 0) largest = right;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest]!, heap[i]!];
      i = largest;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      siftUp(heap.length - 1);
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort(compare);
}

/**
 * Every item in order, sorting only the first `first` unless the reader goes on: a reader that
 * usually stops early (ten suggestions of thousands of candidates) pays for a bounded heap, not a sort.
 * `compare` must order every two distinct items.
 */
export function* inOrder<T>(items: readonly T[], first: number, compare: (a: T, b: T) => number): Generator<T> {
  const head = smallest(items, first, compare);
  yield* head;
  if (head.length < items.length) yield* [...items].sort(compare).slice(head.length);
}
