import { resolvePlace } from '@cs/gazetteer';
import { locationOf } from './location';

describe('locationOf', () => {
  it.each([
    'This is a fully remote position.',
    'Remote role, US hours.',
    'You can work from home.',
    'Location: Remote',
    'Accountant\nRemote (US)\nRequirements',
  ])('reads remote work in %p', (text) => {
    expect(locationOf(text)).toEqual({ remote: true });
  });

  it.each([
    'Experience with remote monitoring tools',
    'Remote sensing and GIS analysis',
    'Hybrid: remote work two days a week, based in Austin, TX',
    'This is not a remote position. Based in Denver, CO.',
  ])('reads no remote work in %p', (text) => {
    expect(locationOf(text)).not.toEqual({ remote: true });
  });

  it.each([
    ['The role is based in Austin, TX.', 'Austin, Texas, United States'],
    ['Our clinic is located in Denver, Colorado.', 'Denver, Colorado, United States'],
    ['Full-time, on-site in Manchester, United Kingdom', 'Manchester, England, United Kingdom'],
    ['Location: Pune, India\nRequirements', 'Pune, Maharashtra, India'],
    ['Staff Accountant\nPhoenix, AZ 85004\n\nWe need an accountant.', 'Phoenix, Arizona, United States'],
    ['Join our Seattle, WA team!', 'Seattle, Washington, United States'],
  ])('reads the place of %p', (text, place) => {
    expect(locationOf(text)).toEqual({ place, radiusKm: 50 });
  });

  it('names the place so that the gazetteer resolves it again', () => {
    const read = locationOf('Based in Austin, TX');
    expect(read && 'place' in read && resolvePlace(read.place)).toMatchObject({ city: 'Austin', regionCode: 'TX', countryCode: 'US' });
  });

  it('reads a radius the posting states, in kilometres', () => {
    expect(locationOf('Based in Austin, TX; candidates within 30 miles')).toEqual({ place: 'Austin, Texas, United States', radiusKm: 48 });
    expect(locationOf('Located in Berlin, Germany, within 20 km')).toEqual({ place: 'Berlin, Berlin, Germany', radiusKm: 20 });
  });

  it('reads no place it cannot resolve, nor a list of skills', () => {
    expect(locationOf('Based in Nowhereville, Utopia.')).toBeNull();
    expect(locationOf('Windows Server, Active Directory, FICO, MM or SD')).toBeNull();
    expect(locationOf('Delivery centres in Pune and Manila')).toBeNull();
    expect(locationOf('')).toBeNull();
  });
});
