import { CONTROL, Field } from "./field";

// One labelled filter control for every filter bar (the leaderboard's, a run's items'). The URL
// is the state: the control shows the URL's value and is re-mounted when that value changes (its
// key), so Back, Reset and links show what the page shows. A select applies at once through
// `onPick`; an input is read from its form on submit, by its `name`.

type InputProps = Omit<React.ComponentProps<"input">, "id" | "value" | "defaultValue" | "className" | "disabled"> & { name: string };

interface Choices {
  /** label of the empty choice (no filter) */
  any: string;
  options: (string | number | { value: string | number; label: string })[];
  onPick: (value: string) => void;
}

export function FilterField({
  label,
  id,
  value,
  disabled,
  className,
  select,
  input,
}: {
  label: string;
  id: string;
  /** the value in the URL */
  value: string | number | undefined;
  disabled?: boolean;
  className?: string;
} & ({ select: Choices; input?: never } | { input: InputProps; select?: never })) {
  const key = `${id}:${value ?? ""}`;
  return (
    <Field label={label} htmlFor={id} className={className}>
      {select ? (
        <select
          id={id}
          key={key}
          className={CONTROL}
          disabled={disabled}
          defaultValue={value ?? ""}
          onChange={(e) => select.onPick(e.target.value)}
        >
          <option value="">{select.any}</option>
          {select.options.map((o) => {
            const opt = typeof o === "object" ? o : { value: o, label: String(o) };
            return (
              <option key={opt.value} value={opt.value}>
                {opt.label}
              </option>
            );
          })}
        </select>
      ) : (
        <input id={id} key={key} className={CONTROL} disabled={disabled} defaultValue={value ?? ""} {...input} />
      )}
    </Field>
  );
}
