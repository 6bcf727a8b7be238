import { NextResponse } from "next/server";
import { openApiDocument } from "@/lib/http/openapi";
import { handler } from "@/lib/http/respond";
import packageJson from "@/package.json";

/** The OpenAPI 3.1 description of the JSON routes (lib/http/openapi.ts), for anyone: it holds no data. */
export const GET = handler(async () => NextResponse.json(openApiDocument(packageJson.version)));
