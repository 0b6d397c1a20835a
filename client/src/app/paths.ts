/** Every route's path, in one place, so links and redirects cannot drift apart. */
export const paths = {
  home: '/',
  signIn: '/signin',
  notFound: '/error-pages/error-404',
} as const;
