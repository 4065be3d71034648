import { useState } from "react";
import { setTheme, storedTheme, THEME_CHOICES, type ThemeChoice } from "../../theme";

const LABELS: Record<ThemeChoice, string> = { system: "System theme", light: "Light", dark: "Dark" };

/** A choice of theme (system, light, dark), kept across visits. */
export default function ThemeSwitch() {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  return (
    <label className="theme-switch">
      <span className="sr-only">Theme</span>
      <select
        value={choice}
        onChange={(e) => {
          const next = e.target.value as ThemeChoice;
          setChoice(next);
          setTheme(next);
        }}
      >
        {THEME_CHOICES.map((c) => (
          <option key={c} value={c}>
            {LABELS[c]}
          </option>
        ))}
      </select>
    </label>
  );
}
