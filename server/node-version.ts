/** React Router 8 needs Node 22.22 or newer; say so plainly instead of failing deep in a bundle. */
export function assertNodeVersion(): void {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > 22 || (major === 22 && minor >= 22)) return;
  console.error(
    `Node ${process.versions.node} is too old: this service needs Node 22.22 or newer (see .nvmrc). ` +
      "Install it with your version manager, e.g. `nvm install`, and run the command again.",
  );
  process.exit(1);
}
