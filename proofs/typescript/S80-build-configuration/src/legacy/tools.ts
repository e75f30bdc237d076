// Left out of the program by tsconfig.json's "exclude": tsc never compiles it.
export function tool(n: string): string {
    return legacy(n);
}

function legacy(n: string): string {
    return n.repeat(2);
}
