export function greet(who: string): string {
    return "impl:" + who;
}
