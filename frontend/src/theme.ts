// The colour theme: light, dark, or the system's (the default). The choice is kept in localStorage;
// <html data-theme="light|dark"> carries the theme in force, which styles.css reads.

export type ThemeChoice = "system" | "light" | "dark";
export const THEME_CHOICES: ThemeChoice[] = ["system", "light", "dark"];
const KEY = "kb-theme";
const DARK_QUERY = "(prefers-color-scheme: dark)";

/** The stored choice, "system" when none (or an unknown one) is stored or storage is unavailable. */
export function storedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === "light" || v === "dark" ? v : "system";
  } catch {
    return "system";
  }
}

/** The theme in force for a choice: the system's when the choice is "system". */
export function effectiveTheme(choice: ThemeChoice, systemDark = systemPrefersDark()): "light" | "dark" {
  return choice === "system" ? (systemDark ? "dark" : "light") : choice;
}

function systemPrefersDark(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches;
}

/** Put the theme in force on <html>. */
export function applyTheme(choice: ThemeChoice = storedTheme()): void {
  document.documentElement.dataset.theme = effectiveTheme(choice);
}

/** Store a choice and apply it. */
export function setTheme(choice: ThemeChoice): void {
  try {
    if (choice === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // private browsing without storage: the choice lasts for this page only
  }
  applyTheme(choice);
}

/** Apply the stored theme now and follow the system's setting while the choice is "system". */
export function initTheme(): void {
  applyTheme();
  if (typeof window.matchMedia !== "function") return;
  window.matchMedia(DARK_QUERY).addEventListener?.("change", () => {
    if (storedTheme() === "system") applyTheme("system");
  });
}
