/** Where visitors write about the built-in content and their data; the footer shows it too. */
export const CONTACT_EMAIL = 'hello@freight.local';

/**
 * The built-in privacy policy (Markdown). It describes what this software stores and what its
 * operator commits to; an operator with other practices edits the `privacyPolicy` content entry.
 */
export const privacyPolicyText = `## Privacy policy

Freight Marketplace brings shippers, carriers and their drivers together to move freight: loads are posted, carriers make offers, the accepted offer becomes a contract and a tour, and the tour is tracked until the freight is delivered and both sides have rated each other. This policy explains which personal data the service keeps to do that, who can see it, how long it is kept and how to reach us. It applies to this installation of Freight Marketplace, run by the organization named in the footer of this page.

## What we keep

- **Your account.** Your name, e-mail address, username, phone number, the organization you belong to and your role in it (shipper, carrier, driver or administrator). Your password is stored only as a salted Argon2 hash; nobody, not even an administrator, can read it. We also keep the time of your last password change and the sessions you are signed in with, so that signing out or resetting your password ends them.
- **Your company.** The organization's name, contact person, address, phone and e-mail. For carriers: the MC and DOT numbers, the fleet (trucks, trailers, driver teams) and the documents you upload: MC authority, certificate of insurance, W-9 form and notice of assignment. For shippers: the insured amount and, if you add one, the image of the signature printed on rate confirmations. Documents are stored in our database, never on a third-party file service.
- **Your shipments.** Loads with their stops, facility contacts, dates, equipment, weight and commodity; offers and counter offers with their prices and messages; rate confirmations and signed contracts; tour status changes, notes, chat messages and ratings.
- **Positions during tours.** While a tour is on the road, from "Ready for pickup" until "Pending Delivery Confirmation", the assigned driver's app or the carrier's ELD (truck telematics) sends the truck's position, speed and heading. We record positions only for tours in those statuses: not before the tour is assigned, and not after it is delivered or cancelled. Positions are used to show the truck on the map, to record arrivals and departures at the stops and to estimate the arrival time.
- **Your interest in the service.** If you leave your e-mail address in the form on this page, we keep the address and the time you sent it, and e-mail it to our team so that someone can get back to you.
- **Technical records.** Our server logs each request with its time, path, result and the address it came from, to keep the service running and to detect abuse. Failed sign-ins are counted, in memory and for at most an hour, to stop password guessing.

We do not sell personal data, we do not show advertising, and we use no tracking or analytics services.

## Why we keep it

We process account, company and shipment data to provide the service you signed up for: matching loads with carriers, producing contracts, running tours and paying attention to who did what. Positions are processed to perform the transport contract between the shipper and the carrier and in their legitimate interest in knowing where the freight is. Technical records are kept in our legitimate interest in a secure and reliable service. We keep shipment records also because transport and tax authorities may ask for them.

## Who can see it

Each organization sees its own data and nothing of another organization's, with these exceptions that the marketplace needs: carriers see open loads (without the facility contacts, which only the carrier whose offer was accepted sees); a shipper sees the name, the ratings and the offers of the carriers that bid on its loads; the shipper, the carrier and the assigned driver of a tour see its positions, events and chat. Administrators of this installation can see everything in order to approve organizations, help users and resolve disputes. E-mails are sent through our mail provider; carriers that connect an ELD provider share truck positions with us through that provider.

## How long we keep it

- Accounts and company details: while the account is active. When an account or an organization is closed, we remove its contact details and documents within 90 days, except what is part of a shipment record.
- Shipment records, including the positions recorded during a tour: seven years after the shipment ended, the period during which they may be needed as evidence of a contract or for tax purposes. The history of a shipment is append-only: entries are added, never edited, so that everyone can trust it.
- Interest left in the form on this page: until you ask us to stop, and at most two years.
- Server logs: 30 days.

## Your rights

You can see and correct your account and company data in the account settings at any time. You can ask us for a copy of your personal data, for its correction or deletion, or object to its use, by writing to the address below; we answer within 30 days. Deleting data that belongs to a shipment record may have to wait until the end of its retention period, and we will tell you if that is the case. You can also lodge a complaint with your data protection authority.

## Security

Connections to the service are encrypted (HTTPS), passwords are hashed, ELD credentials are encrypted at rest, and every access to another organization's data is refused. If a breach affecting your data happens, we will tell you without undue delay.

## Contact

Questions about this policy or about your data: write to ${CONTACT_EMAIL}, or use the contact details in the footer of this page. When the service changes in a way that affects your data, we update this policy and tell signed-in users.
`;
