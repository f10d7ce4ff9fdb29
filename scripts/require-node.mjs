// Runs before `npm start`, `npm test` and `npm run serve`, on whatever Node is installed (so it is plain
// JavaScript): the server is TypeScript run by Node 24's type stripping, which older versions do not
// have, and would fail on the first `.ts` file with a message that says nothing useful.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  process.stderr.write(
    [
      `LumenQC needs Node.js 24 or newer; this is Node.js ${process.versions.node} (${process.execPath}).`,
      'Install Node.js 24 (https://nodejs.org/, or `nvm install 24`) and run the command again.',
      'In a development checkout, `npm install` also installs Node 24 for npm scripts (the `node` dev dependency).',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
