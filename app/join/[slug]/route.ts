import { NextResponse } from "next/server";
import { getSessionClaims } from "@/lib/auth/session";
import { participantSessionCookie } from "@/lib/auth/participant-session";
import { participantOfLink } from "@/lib/crowd/link";
import { joinStudy } from "@/lib/data/participants";
import { scheduleRelease } from "@/lib/crowd/release";
import { AppError } from "@/lib/errors";
import { handler } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** A study's crowd link: makes or resumes the participant the URL names, binds them to this browser and leads to their page. */
export const GET = handler(async (request: Request, { params }: { params: Promise<{ slug: string }> }) => {
  const { slug } = await params;
  const participant = participantOfLink(new URL(request.url).searchParams);
  if ("error" in participant) throw new AppError("INVALID_INPUT", { message: participant.error });
  const joined = await joinStudy(slug, participant, (await getSessionClaims())?.id ?? null);
  await scheduleRelease(joined.account.id);
  // A relative Location: the browser stays on the host it asked (and its cookie with it), whatever host the server believes it has.
  const response = new NextResponse(null, { status: 303, headers: { Location: `/participate/${encodeURIComponent(slug)}` } });
  response.cookies.set(await participantSessionCookie(joined.account));
  return response;
});
