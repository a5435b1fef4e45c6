/** Demo events at real Kenyan venues; `dayOffset` is relative to the day the data is seeded. */
export interface DemoEvent {
  title: string;
  description: string;
  location: string;
  latitude: number;
  longitude: number;
  dayOffset: number;
  time: string;
  ticketPrice: number;
  capacity?: number;
  /** Several kinds of ticket (the first replaces the default type made at ticketPrice); sales end `salesEndDayOffset` days from seeding. */
  ticketTypes?: Array<{ name: string; price: number; capacity?: number; maxPerOrder?: number; salesEndDayOffset?: number }>;
}

export const demoEvents: DemoEvent[] = [
  {
    title: 'Nairobi Tech Summit',
    description: 'Two days of talks, demos and hiring fairs with East Africa’s builders: fintech, M-Pesa APIs, agritech and AI.',
    location: 'Kenyatta International Convention Centre (KICC), Nairobi',
    latitude: -1.2887,
    longitude: 36.8233,
    dayOffset: 12,
    time: '09:00',
    ticketPrice: 1500,
    capacity: 400,
  },
  {
    title: 'Koroga Festival',
    description: 'Afro-fusion live music, food trucks and a family picnic lawn. Bring a blanket and your dancing shoes.',
    location: 'Uhuru Gardens, Langata Road, Nairobi',
    latitude: -1.327,
    longitude: 36.8013,
    dayOffset: 20,
    time: '14:00',
    ticketPrice: 2500,
    capacity: 1500,
    ticketTypes: [
      { name: 'Early Bird', price: 1800, capacity: 300, maxPerOrder: 4, salesEndDayOffset: 7 },
      { name: 'Regular', price: 2500 },
      { name: 'VIP', price: 6000, capacity: 100, maxPerOrder: 4 },
    ],
  },
  {
    title: 'Museum Night: Stories of the Swahili Coast',
    description: 'An evening walk through the galleries with curators, storytellers and taarab musicians. Free entry.',
    location: 'Nairobi National Museum, Museum Hill, Nairobi',
    latitude: -1.2742,
    longitude: 36.8144,
    dayOffset: 5,
    time: '18:30',
    ticketPrice: 0,
  },
  {
    title: 'Arboretum Sunday Run',
    description: 'A friendly 5 km and 10 km trail run under the trees, followed by chai and mandazi. All paces welcome.',
    location: 'Nairobi Arboretum, State House Road, Nairobi',
    latitude: -1.2714,
    longitude: 36.8061,
    dayOffset: 3,
    time: '07:00',
    ticketPrice: 0,
    capacity: 300,
  },
  {
    title: 'Fort Jesus Heritage Tour',
    description: 'A guided evening tour of the 16th-century fort with a sound-and-light show over the Old Town.',
    location: 'Fort Jesus, Mombasa',
    latitude: -4.0626,
    longitude: 39.6795,
    dayOffset: 9,
    time: '17:00',
    ticketPrice: 800,
    capacity: 120,
  },
  {
    title: 'Mombasa Food & Dhow Festival',
    description: 'Biryani, viazi karai and fresh seafood by the water, with dhow races and live chakacha dancers.',
    location: 'Mama Ngina Waterfront, Mombasa',
    latitude: -4.0725,
    longitude: 39.671,
    dayOffset: 27,
    time: '12:00',
    ticketPrice: 500,
  },
  {
    title: 'Nyali Beach Clean-up',
    description: 'Join neighbours and marine conservationists to clean the beach and learn about turtle nesting.',
    location: 'Nyali Beach, Mombasa',
    latitude: -4.0437,
    longitude: 39.725,
    dayOffset: -14,
    time: '08:00',
    ticketPrice: 0,
  },
  {
    title: 'Lake Victoria Sunset Cruise',
    description: 'A sunset boat ride from Dunga Beach with fish-farming stories from the local community.',
    location: 'Dunga Beach, Kisumu',
    latitude: -0.145,
    longitude: 34.743,
    dayOffset: 15,
    time: '17:30',
    ticketPrice: 1200,
    capacity: 40,
  },
  {
    title: 'Kisumu Ohangla Night',
    description: 'An evening of Luo ohangla and benga music with guest artists from across Nyanza.',
    location: 'Jomo Kenyatta Sports Ground, Kisumu',
    latitude: -0.1,
    longitude: 34.76,
    dayOffset: -30,
    time: '19:00',
    ticketPrice: 700,
  },
  {
    title: 'Lake Nakuru Birding Safari',
    description: 'A morning game drive with ornithologists: flamingos, pelicans and the rhino sanctuary.',
    location: 'Lake Nakuru National Park, Nakuru',
    latitude: -0.366,
    longitude: 36.08,
    dayOffset: 18,
    time: '06:30',
    ticketPrice: 3000,
    capacity: 30,
  },
  {
    title: 'Menengai Crater Hike',
    description: 'A guided hike along the rim of one of the largest calderas in Africa. Free for club members and guests.',
    location: 'Menengai Crater, Nakuru',
    latitude: -0.2,
    longitude: 36.07,
    dayOffset: 7,
    time: '07:30',
    ticketPrice: 0,
  },
  {
    title: 'Eldoret City Marathon Expo',
    description: 'Meet champions from the Home of Champions, collect race kits and join the shake-out run.',
    location: 'Kipchoge Keino Stadium, Eldoret',
    latitude: 0.5143,
    longitude: 35.2698,
    dayOffset: 24,
    time: '10:00',
    ticketPrice: 0,
  },
  {
    title: 'Iten Altitude Running Camp',
    description: 'A weekend of training sessions with coaches at 2,400 m, the village where champions are made.',
    location: 'Iten, Elgeyo-Marakwet (near Eldoret)',
    latitude: 0.6703,
    longitude: 35.5081,
    dayOffset: -45,
    time: '06:00',
    ticketPrice: 2000,
  },
];
