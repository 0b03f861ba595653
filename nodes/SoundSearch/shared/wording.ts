/** A number with its noun ("1 credit", "2 credits"), for notices and hints. */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
