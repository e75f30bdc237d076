export { area as surface } from "./impl";
export * from "./impl";
