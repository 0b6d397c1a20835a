/**
 * The landing content shipped with the server: what the page shows when no Contentful space is
 * configured or Contentful cannot be read. Written into `content_entries` at the first read of each
 * type, where an operator may edit it. Images are the SVG files of `client/public/content/`, served
 * by the server at `/content/…`; nothing here points outside the installation.
 */
import type { ContentItems } from './content.types.ts';
import { CONTACT_EMAIL, privacyPolicyText } from './privacyPolicy.ts';

const image = (name: string) => `/content/${name}.svg`;

export const builtInContent: ContentItems = {
  hero: [
    {
      title: 'Move freight with the people who haul it',
      subtitle:
        'Post a load in two minutes, get priced offers from vetted carriers, and follow the truck to the dock, with every step on the record.',
      image: image('hero-truck-highway'),
    },
  ],

  aboutCards: [
    {
      title: 'Shippers post, carriers bid',
      description:
        'Describe the pickup, the dropoff, the equipment and the weight once. Carriers who search your lanes see the load at once and answer with a price and a message; you compare the offers, counter, and accept the one that fits.',
      image: image('about-post-and-bid'),
    },
    {
      title: 'Track every mile',
      description:
        "Once the contract is signed the carrier assigns a driver. Positions from the driver's phone or the truck's ELD show on a live map, arrivals and departures are recorded at every stop, and everyone sees the same ETA.",
      image: image('about-live-tracking'),
    },
    {
      title: 'A history nobody can rewrite',
      description:
        'Every offer, counter offer, signature, status change and message is kept as an event with who did it and when. Replay a shipment at any moment, export it as CSV, and settle a dispute with facts. Ratings on both sides keep everyone honest.',
      image: image('about-audit-trail'),
    },
  ],

  videoSection: [
    {
      title: 'See one shipment from posting to delivery',
      subtitle:
        'A shipper posts a Chicago to Dallas load, three carriers bid, the winner signs the rate confirmation, and the truck is tracked all the way to the consignee.',
      // A local animation: the page never loads a video site.
      embeddedVideoUrl: image('product-tour'),
    },
  ],

  featuresSection: [
    {
      tabName: 'Load board',
      tabImage: image('feature-load-board'),
      tabDescription:
        'Post loads one at a time or upload a CSV of hundreds. Every row shows its status from Created to Delivered, the best offer so far and what you can do next. Carriers search by origin and destination radius, equipment and weight.',
    },
    {
      tabName: 'Offers and contracts',
      tabImage: image('feature-offers'),
      tabDescription:
        'Carriers bid with a price and a message; shippers counter or accept. The rate confirmation is generated as a PDF, the signed contract comes back as an upload, and the other bidders hear the outcome right away.',
    },
    {
      tabName: 'Live tracking',
      tabImage: image('feature-tracking'),
      tabDescription:
        'Drivers share their position from their phone, or the carrier connects its ELD provider. A geofence around each stop records arrivals and departures, and the map shows the trail and the ETA to the next stop.',
    },
    {
      tabName: 'Chat and history',
      tabImage: image('feature-history'),
      tabDescription:
        'Every tour has a chat for the shipper, the dispatcher and the driver. Everything that happens to a shipment lands in its audit trail: replay it at any moment, or download it as CSV for your records.',
    },
  ],

  formSection: [
    {
      title: 'Want to try it on your lanes?',
      subtitle:
        'Leave your work e-mail: we will set up an account for your team and walk you through your first load.',
      inputPlaceholder: 'Your work e-mail',
      actionButtonText: 'Keep me posted',
    },
  ],

  partnersSection: [
    {
      title: 'Shaped with shippers and carriers',
      images: [
        'bluestem-freight',
        'copperline-haulers',
        'harborview-cold-chain',
        'keystone-pallet-works',
        'lakeshore-intermodal',
        'red-mesa-carriers',
      ].map((name) => image(`partner-${name}`)),
    },
  ],

  footer: [
    {
      aboutCompany:
        'Freight Marketplace is open-source software for shippers and carriers: post loads, collect offers, sign, track and rate in one place, with an audit trail of every step. Run it on your own server, or ask us to run it for you.',
      actionButtonText: 'Sign in',
      contactTitle: 'Contact us',
      contactEmail: CONTACT_EMAIL,
      contactLocation: 'Chicago, Illinois, USA',
      contactPhone: '(312) 555-0100',
      termsText: 'Terms and conditions',
      privacyText: 'Privacy policy',
      copyright: '© 2026 Freight Marketplace contributors. Free software under the MIT License.',
    },
  ],

  privacyPolicy: [{ text: privacyPolicyText }],
};
