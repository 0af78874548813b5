/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver packages must be loaded by Node at run time, not bundled.
  serverExternalPackages: ["better-sqlite3", "pg", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg"],
  poweredByHeader: false,
};
export default nextConfig;
