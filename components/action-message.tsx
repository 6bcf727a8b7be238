/** The result of a form's server action: a status when it worked, an alert with the error otherwise; line breaks kept. */
export function ActionMessage({ message }: { message: { ok: boolean; text: string } | null }) {
  if (!message) return null;
  return (
    <p role={message.ok ? "status" : "alert"} className={`whitespace-pre-line text-sm ${message.ok ? "text-emerald-700" : "text-red-700"}`}>
      {message.text}
    </p>
  );
}
