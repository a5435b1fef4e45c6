/**
 * A small built-in gazetteer so event locations can be placed on a map without any network:
 * the 47 county headquarters, other towns people name, and well-known event venues.
 * Coordinates are WGS84 degrees (south and west negative), accurate to a few hundred metres.
 */
export interface Place {
  name: string;
  /** Other spellings and abbreviations that name the same place. */
  aliases?: string[];
  lat: number;
  lon: number;
  kind: 'county-capital' | 'town' | 'venue' | 'park';
}

export const kenyaPlaces: Place[] = [
  // County headquarters (county in the comment where it differs from the town's name).
  { name: 'Nairobi', lat: -1.2864, lon: 36.8172, kind: 'county-capital' },
  { name: 'Mombasa', lat: -4.0435, lon: 39.6682, kind: 'county-capital' },
  { name: 'Kwale', lat: -4.1737, lon: 39.4521, kind: 'county-capital' },
  { name: 'Kilifi', lat: -3.6305, lon: 39.8499, kind: 'county-capital' },
  { name: 'Hola', lat: -1.4999, lon: 40.03, kind: 'county-capital' }, // Tana River
  { name: 'Lamu', lat: -2.2717, lon: 40.902, kind: 'county-capital' },
  { name: 'Mwatate', lat: -3.505, lon: 38.378, kind: 'county-capital' }, // Taita-Taveta
  { name: 'Garissa', lat: -0.4532, lon: 39.6461, kind: 'county-capital' },
  { name: 'Wajir', lat: 1.7471, lon: 40.0573, kind: 'county-capital' },
  { name: 'Mandera', lat: 3.9366, lon: 41.867, kind: 'county-capital' },
  { name: 'Marsabit', lat: 2.3284, lon: 37.9899, kind: 'county-capital' },
  { name: 'Isiolo', lat: 0.3546, lon: 37.5822, kind: 'county-capital' },
  { name: 'Meru', lat: 0.0463, lon: 37.6559, kind: 'county-capital' },
  { name: 'Chuka', lat: -0.333, lon: 37.6457, kind: 'county-capital' }, // Tharaka-Nithi
  { name: 'Embu', lat: -0.531, lon: 37.45, kind: 'county-capital' },
  { name: 'Kitui', lat: -1.367, lon: 38.0106, kind: 'county-capital' },
  { name: 'Machakos', lat: -1.5177, lon: 37.2634, kind: 'county-capital' },
  { name: 'Wote', lat: -1.7833, lon: 37.6333, kind: 'county-capital' }, // Makueni
  { name: 'Ol Kalou', aliases: ['Olkalou'], lat: -0.27, lon: 36.38, kind: 'county-capital' }, // Nyandarua
  { name: 'Nyeri', lat: -0.4201, lon: 36.9476, kind: 'county-capital' },
  { name: 'Kerugoya', lat: -0.4989, lon: 37.2803, kind: 'county-capital' }, // Kirinyaga
  { name: "Murang'a", aliases: ['Muranga'], lat: -0.721, lon: 37.1526, kind: 'county-capital' },
  { name: 'Kiambu', lat: -1.1714, lon: 36.8356, kind: 'county-capital' },
  { name: 'Lodwar', lat: 3.1191, lon: 35.5973, kind: 'county-capital' }, // Turkana
  { name: 'Kapenguria', lat: 1.2389, lon: 35.1119, kind: 'county-capital' }, // West Pokot
  { name: 'Maralal', lat: 1.0968, lon: 36.698, kind: 'county-capital' }, // Samburu
  { name: 'Kitale', lat: 1.0157, lon: 35.0062, kind: 'county-capital' }, // Trans-Nzoia
  { name: 'Eldoret', lat: 0.5143, lon: 35.2698, kind: 'county-capital' }, // Uasin Gishu
  { name: 'Iten', lat: 0.6703, lon: 35.5081, kind: 'county-capital' }, // Elgeyo-Marakwet
  { name: 'Kapsabet', lat: 0.2039, lon: 35.105, kind: 'county-capital' }, // Nandi
  { name: 'Kabarnet', lat: 0.4919, lon: 35.743, kind: 'county-capital' }, // Baringo
  { name: 'Rumuruti', lat: 0.2725, lon: 36.538, kind: 'county-capital' }, // Laikipia
  { name: 'Nakuru', lat: -0.3031, lon: 36.08, kind: 'county-capital' },
  { name: 'Narok', lat: -1.0783, lon: 35.8601, kind: 'county-capital' },
  { name: 'Kajiado', lat: -1.8524, lon: 36.7768, kind: 'county-capital' },
  { name: 'Kericho', lat: -0.3677, lon: 35.2831, kind: 'county-capital' },
  { name: 'Bomet', lat: -0.7813, lon: 35.3416, kind: 'county-capital' },
  { name: 'Kakamega', lat: 0.2827, lon: 34.7519, kind: 'county-capital' },
  { name: 'Mbale', lat: 0.0833, lon: 34.7167, kind: 'county-capital' }, // Vihiga
  { name: 'Bungoma', lat: 0.5635, lon: 34.5606, kind: 'county-capital' },
  { name: 'Busia', lat: 0.4608, lon: 34.1115, kind: 'county-capital' },
  { name: 'Siaya', lat: 0.0607, lon: 34.2881, kind: 'county-capital' },
  { name: 'Kisumu', lat: -0.0917, lon: 34.768, kind: 'county-capital' },
  { name: 'Homa Bay', aliases: ['Homabay'], lat: -0.5273, lon: 34.4571, kind: 'county-capital' },
  { name: 'Migori', lat: -1.0634, lon: 34.4731, kind: 'county-capital' },
  { name: 'Kisii', lat: -0.6817, lon: 34.7667, kind: 'county-capital' },
  { name: 'Nyamira', lat: -0.5633, lon: 34.9358, kind: 'county-capital' },

  // Other towns and neighbourhoods people put in a location.
  { name: 'Voi', lat: -3.3961, lon: 38.5561, kind: 'town' },
  { name: 'Malindi', lat: -3.2192, lon: 40.1169, kind: 'town' },
  { name: 'Watamu', lat: -3.354, lon: 40.024, kind: 'town' },
  { name: 'Diani', aliases: ['Diani Beach'], lat: -4.3167, lon: 39.5833, kind: 'town' },
  { name: 'Naivasha', lat: -0.7167, lon: 36.4333, kind: 'town' },
  { name: 'Nanyuki', lat: 0.0167, lon: 37.074, kind: 'town' },
  { name: 'Thika', lat: -1.0333, lon: 37.0693, kind: 'town' },
  { name: 'Ruiru', lat: -1.1466, lon: 36.9609, kind: 'town' },
  { name: 'Kitengela', lat: -1.476, lon: 36.96, kind: 'town' },
  { name: 'Rongai', aliases: ['Ongata Rongai'], lat: -1.396, lon: 36.744, kind: 'town' },
  { name: 'Limuru', lat: -1.106, lon: 36.642, kind: 'town' },
  { name: 'Westlands', lat: -1.2676, lon: 36.8108, kind: 'town' },
  { name: 'Karen', lat: -1.3197, lon: 36.7073, kind: 'town' },
  { name: 'Kilimani', lat: -1.29, lon: 36.787, kind: 'town' },
  { name: 'Nyali', lat: -4.0333, lon: 39.7, kind: 'town' },

  // Venues and landmarks.
  {
    name: 'Kenyatta International Convention Centre',
    aliases: ['KICC', 'Kenyatta International Conference Centre'],
    lat: -1.2887,
    lon: 36.8233,
    kind: 'venue',
  },
  { name: 'Uhuru Gardens', aliases: ['Uhuru Gardens Memorial Park'], lat: -1.327, lon: 36.8013, kind: 'venue' },
  { name: 'Uhuru Park', lat: -1.289, lon: 36.817, kind: 'venue' },
  {
    name: 'Moi International Sports Centre',
    aliases: ['Kasarani', 'Kasarani Stadium', 'MISC Kasarani'],
    lat: -1.2216,
    lon: 36.8906,
    kind: 'venue',
  },
  { name: 'Nyayo National Stadium', aliases: ['Nyayo Stadium'], lat: -1.304, lon: 36.8245, kind: 'venue' },
  { name: 'Nairobi National Museum', lat: -1.2742, lon: 36.8144, kind: 'venue' },
  { name: 'Nairobi Arboretum', lat: -1.2714, lon: 36.8061, kind: 'park' },
  { name: 'Karura Forest', lat: -1.235, lon: 36.834, kind: 'park' },
  { name: 'Nairobi National Park', lat: -1.3733, lon: 36.858, kind: 'park' },
  { name: 'Bomas of Kenya', lat: -1.342, lon: 36.768, kind: 'venue' },
  { name: 'Carnivore', aliases: ['Carnivore Restaurant'], lat: -1.329, lon: 36.805, kind: 'venue' },
  { name: 'Kenya National Theatre', aliases: ['National Theatre'], lat: -1.279, lon: 36.8167, kind: 'venue' },
  { name: 'Two Rivers Mall', lat: -1.2107, lon: 36.7946, kind: 'venue' },
  { name: 'Village Market', lat: -1.229, lon: 36.804, kind: 'venue' },
  { name: 'Sarit Centre', aliases: ['Sarit Center'], lat: -1.261, lon: 36.802, kind: 'venue' },
  { name: 'Ngong Racecourse', lat: -1.3044, lon: 36.746, kind: 'venue' },
  { name: 'University of Nairobi', lat: -1.2797, lon: 36.8166, kind: 'venue' },
  { name: 'Strathmore University', lat: -1.3099, lon: 36.8124, kind: 'venue' },
  { name: 'Fort Jesus', lat: -4.0626, lon: 39.6795, kind: 'venue' },
  { name: 'Mama Ngina Waterfront', aliases: ['Mama Ngina Drive'], lat: -4.0725, lon: 39.671, kind: 'venue' },
  { name: 'Nyali Beach', lat: -4.0437, lon: 39.725, kind: 'venue' },
  { name: 'Bamburi Beach', lat: -3.999, lon: 39.727, kind: 'venue' },
  { name: 'Haller Park', lat: -4.009, lon: 39.721, kind: 'park' },
  { name: 'Lake Nakuru National Park', aliases: ['Lake Nakuru NP', 'Lake Nakuru'], lat: -0.366, lon: 36.08, kind: 'park' },
  { name: 'Menengai Crater', aliases: ['Menengai'], lat: -0.2, lon: 36.07, kind: 'park' },
  { name: 'Afraha Stadium', lat: -0.287, lon: 36.069, kind: 'venue' },
  { name: "Hell's Gate National Park", aliases: ['Hells Gate'], lat: -0.916, lon: 36.31, kind: 'park' },
  { name: 'Lake Naivasha', lat: -0.77, lon: 36.4, kind: 'park' },
  { name: 'Kipchoge Keino Stadium', lat: 0.5186, lon: 35.2756, kind: 'venue' },
  { name: 'Dunga Beach', lat: -0.145, lon: 34.743, kind: 'venue' },
  { name: 'Jomo Kenyatta Sports Ground', lat: -0.1, lon: 34.76, kind: 'venue' },
  { name: 'Kisumu Impala Sanctuary', aliases: ['Impala Sanctuary'], lat: -0.109, lon: 34.743, kind: 'park' },
  { name: 'Kakamega Forest', lat: 0.27, lon: 34.86, kind: 'park' },
  { name: 'Bukhungu Stadium', lat: 0.287, lon: 34.753, kind: 'venue' },
  { name: 'Amboseli National Park', aliases: ['Amboseli'], lat: -2.6527, lon: 37.2606, kind: 'park' },
  { name: 'Maasai Mara National Reserve', aliases: ['Maasai Mara', 'Masai Mara'], lat: -1.49, lon: 35.144, kind: 'park' },
  { name: 'Mount Kenya', aliases: ['Mt Kenya'], lat: -0.1521, lon: 37.3084, kind: 'park' },
  { name: 'Lake Bogoria', lat: 0.25, lon: 36.1, kind: 'park' },
];
