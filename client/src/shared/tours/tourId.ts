/** The tour id of a page: `/track/tour/<id>` or `/track/tour?id=<id>`. */
export function tourIdOf(
  params: Record<string, string | undefined>,
  search: string,
): string | null {
  if (params.id) return params.id;
  return new URLSearchParams(search).get('id');
}
