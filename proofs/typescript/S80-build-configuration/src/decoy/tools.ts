export function tool(n: number): number {
    return -n;
}
