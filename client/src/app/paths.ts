/** Every route's path the shell itself links or redirects to, in one place. */
export const paths = {
  landing: '/',
  signIn: '/signin',
  /** Where a signed-out visitor is sent (specification "Startup and redirect rules"). */
  signInRedirect: '/signin/',
  signInSelect: '/signin/select',
  signUpSelect: '/signup/select',
  forgetPassword: '/forget-password',
  terms: '/terms',
  privacy: '/privacy',
  notFound: '/error-pages/error-404',
  loadsShipper: '/loads/shipper',
  loadsCarrier: '/loads/carrier',
  driver: '/driver',
} as const;

/** Paths from which a signed-in user goes on to the home page of the role. */
export const entryPaths = [
  '/',
  '/signin',
  '/signin/',
  '/signup/select',
  '/signup/select/',
] as const;
