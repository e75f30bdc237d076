export function greet(who: string): string {
    return "esm:" + who;
}
