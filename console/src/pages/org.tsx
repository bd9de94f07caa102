export function OrgPage({ path }: { path: string }) {
  return <section><h1>{path}</h1></section>;
}
