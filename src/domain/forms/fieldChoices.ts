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
