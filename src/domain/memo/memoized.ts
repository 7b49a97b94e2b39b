/**
 * A pure function of one string that remembers its answers, up to `capacity` inputs; past that it starts afresh,
 * so memory stays bounded whatever the file. Rows of a file repeat their dates: the work of a date is done once
 * per distinct date instead of once per line.
 */
export function memoized<T>(compute: (input: string) => T, capacity = 4096): (input: string) => T {
  let answers = new Map<string, T>();
  return (input) => {
    if (answers.has(input)) return answers.get(input) as T;
    if (answers.size >= capacity) answers = new Map();
    const answer = compute(input);
    answers.set(input, answer);
    return answer;
  };
}
