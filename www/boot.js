// Loads the playground's WebAssembly (a file, not inline script: the Content-Security-Policy
// allows only scripts from this origin).
import init from './playground.js';

init().catch((error) => {
  const boot = document.getElementById('boot');
  if (boot) boot.textContent = `The playground could not start: ${error}`;
});
