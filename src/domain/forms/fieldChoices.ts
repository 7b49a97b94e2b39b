/**
 * A form field checked against a reference (additional-file and rights-request forms) offers the reference's rows as
 * a list to choose from while the reference has at most this many rows. Beyond, the list is not sent (nobody picks
 * among thousands of lines in a select, and sending them with every page held the server and the tablet): the field
 * takes the row's code, checked by the server, and lists show the labels of the values they hold.
 */
export const MAX_FIELD_CHOICES = 1_000;

export interface FieldChoice {
  naturalKey: string;
  label: string;
}

/**
 * A problem's parameters with the sample of a reference's rows it gives (`referenceValues`) named as the field's
 * list shows them: whoever picked from the list never saw their codes. A row the list does not offer keeps its code.
 */
export function withChoiceLabels(
  params: Record<string, unknown>,
  choices: readonly FieldChoice[] | undefined,
): Record<string, unknown> {
  if (!choices || !Array.isArray(params.referenceValues)) return params;
  const labels = new Map(choices.map((choice) => [choice.naturalKey, choice.label]));
  return { ...params, referenceValues: params.referenceValues.map((key) => labels.get(String(key)) ?? key) };
}
