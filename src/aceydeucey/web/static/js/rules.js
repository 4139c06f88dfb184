// The rules page: choosing a preset shows its sheet (a script file: the pages allow no inline script).
const preset = document.getElementById("preset");
if (preset) preset.addEventListener("change", () => preset.form.submit());
