// PhraseLanguages: the date parser's words and patterns for English, German, Dutch, Finnish, Italian and Chinese.
// English is read in every language besides its own. Data.

extension PhraseVocabulary {
  /// The unit words with a frequency each (singular and plural forms).
  private static func units(
    _ days: [String], _ weeks: [String], _ months: [String], _ years: [String]
  ) -> [String: RecurrenceRule.Frequency] {
    var units: [String: RecurrenceRule.Frequency] = [:]
    for (words, unit) in [(days, .daily), (weeks, .weekly), (months, .monthly), (years, .yearly)]
      as [([String], RecurrenceRule.Frequency)]
    {
      for word in words { units[word] = unit }
    }
    return units
  }

  static let english = PhraseVocabulary(
    code: "en",
    weekdayNames: [
      // Not "wed", "sat" or "sun": "buy sun cream" is no date.
      ["monday", "mon"], ["tuesday", "tue", "tues"], ["wednesday"], ["thursday", "thu", "thur", "thurs"],
      ["friday", "fri"], ["saturday"], ["sunday"],
    ],
    monthNames: [
      ["january", "jan"], ["february", "feb"], ["march", "mar"], ["april", "apr"], ["may"], ["june", "jun"],
      ["july", "jul"], ["august", "aug"], ["september", "sep", "sept"], ["october", "oct"], ["november", "nov"],
      ["december", "dec"],
    ],
    numberWords: [
      "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
      "nine": 9, "ten": 10,
    ],
    unitWords: units(["day", "days"], ["week", "weeks"], ["month", "months"], ["year", "years"]),
    and: ["and"],
    meridiems: ["am": .am, "a.m.": .am, "pm": .pm, "p.m.": .pm],
    fillers: ["at", "on", "due", "by", "from", "starting"],
    patterns: [
      ("today", .offset(days: 0)),
      ("tomorrow|tmrw|tmr", .offset(days: 1)),
      (#"(?:the\s+)?day\s+after\s+tomorrow"#, .offset(days: 2)),
      (#"next\s+{wd}"#, .nextWeekday),
      (#"(?:on\s+)?{wd}"#, .weekday),
      (#"next\s+week"#, .nextWeek),
      (#"next\s+month"#, .later(.monthly)),
      (#"next\s+year"#, .later(.yearly)),
      (#"in\s+{n}\s+{u}"#, .later(nil)),
      (#"(?:on\s+)?(?:the\s+)?(?<d>\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+{mo}(?:,?\s+(?<y>\d{4}))?"#, .dayOfNamedMonth),
      (#"(?:on\s+)?{mo}\s+(?<d>\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(?<y>\d{4}))?"#, .dayOfNamedMonth),
      (#"(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})"#, .dayOfMonth),
      (#"(?:at\s+)?(?<h>\d{1,2})(?::(?<min>\d{2}))?\s*(?<ap>am|pm|a\.m\.|p\.m\.)"#, .time),
      (#"(?:at\s+)?(?<h>\d{1,2}):(?<min>\d{2})"#, .time),
      (#"at\s+(?<h>\d{1,2})"#, .time),
      (#"(?:at\s+)?noon|midday"#, .fixedTime(hour: 12)),
      (#"every\s+day|each\s+day|daily"#, .every(.daily, interval: 1)),
      (#"every\s+(?:weekday|workday|work\s+day|business\s+day)|on\s+weekdays|weekdays"#, .everyWorkday),
      (#"(?:every|each)\s+{wds}"#, .everyWeekdays),
      (#"every\s+week|each\s+week|weekly"#, .every(.weekly, interval: 1)),
      (#"every\s+month|each\s+month|monthly"#, .every(.monthly, interval: 1)),
      (#"every\s+year|each\s+year|yearly|annually"#, .every(.yearly, interval: 1)),
      (#"every\s+other\s+{u}"#, .every(nil, interval: 2)),
      (#"every\s+{n}\s+{u}"#, .every(nil, interval: nil)),
    ])

  static let german = PhraseVocabulary(
    code: "de",
    weekdayNames: [
      ["montag"], ["dienstag"], ["mittwoch"], ["donnerstag"], ["freitag"], ["samstag", "sonnabend"], ["sonntag"],
    ],
    monthNames: [
      ["januar", "jan", "jänner"], ["februar", "feb"], ["märz", "mär", "mrz"], ["april", "apr"], ["mai"],
      ["juni", "jun"], ["juli", "jul"], ["august", "aug"], ["september", "sep", "sept"], ["oktober", "okt"],
      ["november", "nov"], ["dezember", "dez"],
    ],
    numberWords: [
      "ein": 1, "einem": 1, "einer": 1, "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6,
      "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "zweite": 2, "zweiten": 2, "zweiter": 2, "zweites": 2,
      "dritte": 3, "dritten": 3,
    ],
    unitWords: units(
      ["tag", "tage", "tagen"], ["woche", "wochen"], ["monat", "monate", "monaten"], ["jahr", "jahre", "jahren"]),
    and: ["und"],
    fillers: ["um", "am", "an", "ab", "bis", "fällig"],
    patterns: [
      ("heute", .offset(days: 0)),
      ("morgen", .offset(days: 1)),
      ("übermorgen", .offset(days: 2)),
      (#"(?:am\s+)?(?:nächsten|nächster|kommenden)\s+{wd}"#, .nextWeekday),
      (#"(?:am\s+)?{wd}"#, .weekday),
      (#"(?:nächste|kommende)\s+woche"#, .nextWeek),
      (#"(?:nächsten|kommenden)\s+monat"#, .later(.monthly)),
      (#"(?:nächstes|kommendes)\s+jahr"#, .later(.yearly)),
      (#"in\s+{n}\s+{u}"#, .later(nil)),
      (#"(?:am\s+)?(?<d>\d{1,2})\.?\s*{mo}(?:\s+(?<y>\d{4}))?"#, .dayOfNamedMonth),
      (#"(?:am\s+)?(?<d>\d{1,2})\.(?<m>\d{1,2})\.(?<y>\d{4})?"#, .dayOfMonth),
      (#"(?:um\s+)?(?<h>\d{1,2})(?:[:.](?<min>\d{2}))?\s*uhr"#, .time),
      (#"um\s+(?<h>\d{1,2})(?:[:.](?<min>\d{2}))?"#, .time),
      (#"(?:um\s+)?mittag"#, .fixedTime(hour: 12)),
      (#"jeden\s+tag|täglich"#, .every(.daily, interval: 1)),
      (#"jeden\s+werktag|werktags|an\s+werktagen"#, .everyWorkday),
      (#"jeden\s+{wds}"#, .everyWeekdays),
      (#"(?<wds>(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)s)"#, .everyWeekdays),
      (#"jede\s+woche|wöchentlich"#, .every(.weekly, interval: 1)),
      (#"jeden\s+monat|monatlich"#, .every(.monthly, interval: 1)),
      (#"jedes\s+jahr|jährlich"#, .every(.yearly, interval: 1)),
      (#"(?:jede|jeden|jedes)\s+{n}\s+{u}"#, .every(nil, interval: nil)),
      (#"alle\s+{n}\s+{u}"#, .every(nil, interval: nil)),
    ])

  static let dutch = PhraseVocabulary(
    code: "nl",
    weekdayNames: [["maandag"], ["dinsdag"], ["woensdag"], ["donderdag"], ["vrijdag"], ["zaterdag"], ["zondag"]],
    monthNames: [
      ["januari", "jan"], ["februari", "feb"], ["maart", "mrt"], ["april", "apr"], ["mei"], ["juni", "jun"],
      ["juli", "jul"], ["augustus", "aug"], ["september", "sep", "sept"], ["oktober", "okt"], ["november", "nov"],
      ["december", "dec"],
    ],
    numberWords: [
      "een": 1, "één": 1, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6, "zeven": 7, "acht": 8, "negen": 9,
      "tien": 10,
    ],
    unitWords: units(["dag", "dagen"], ["week", "weken"], ["maand", "maanden"], ["jaar", "jaren"]),
    and: ["en"],
    fillers: ["om", "op", "vanaf", "tot"],
    patterns: [
      ("vandaag", .offset(days: 0)),
      ("morgen", .offset(days: 1)),
      ("overmorgen", .offset(days: 2)),
      (#"(?:op\s+)?volgende\s+{wd}"#, .nextWeekday),
      (#"(?:op\s+)?{wd}"#, .weekday),
      (#"volgende\s+week"#, .nextWeek),
      (#"volgende\s+maand"#, .later(.monthly)),
      (#"volgend\s+jaar"#, .later(.yearly)),
      (#"over\s+{n}\s+{u}"#, .later(nil)),
      (#"(?:op\s+)?(?<d>\d{1,2})\s+{mo}(?:\s+(?<y>\d{4}))?"#, .dayOfNamedMonth),
      (#"(?:op\s+)?(?<d>\d{1,2})-(?<m>\d{1,2})(?:-(?<y>\d{4}))?"#, .dayOfMonth),
      (#"(?:om\s+)?(?<h>\d{1,2})(?:[:.](?<min>\d{2}))?\s*uur"#, .time),
      (#"om\s+(?<h>\d{1,2})(?:[:.](?<min>\d{2}))?"#, .time),
      (#"(?:om\s+)?twaalf\s+uur\s+'s\s+middags"#, .fixedTime(hour: 12)),
      (#"(?:elke|iedere)\s+dag|dagelijks"#, .every(.daily, interval: 1)),
      (#"(?:elke|iedere)\s+werkdag|op\s+werkdagen|werkdagen"#, .everyWorkday),
      (#"(?:elke|iedere)\s+{wds}"#, .everyWeekdays),
      (#"(?:elke|iedere)\s+week|wekelijks"#, .every(.weekly, interval: 1)),
      (#"(?:elke|iedere)\s+maand|maandelijks"#, .every(.monthly, interval: 1)),
      (#"(?:elk|ieder)\s+jaar|jaarlijks"#, .every(.yearly, interval: 1)),
      (#"(?:elke|iedere|om\s+de)\s+{n}\s+{u}"#, .every(nil, interval: nil)),
    ])

  static let finnish = PhraseVocabulary(
    code: "fi",
    weekdayNames: [
      ["maanantai", "maanantaina"], ["tiistai", "tiistaina"], ["keskiviikko", "keskiviikkona"],
      ["torstai", "torstaina"], ["perjantai", "perjantaina"], ["lauantai", "lauantaina"],
      ["sunnuntai", "sunnuntaina"],
    ],
    monthNames: [
      ["tammikuu", "tammikuuta"], ["helmikuu", "helmikuuta"], ["maaliskuu", "maaliskuuta"],
      ["huhtikuu", "huhtikuuta"], ["toukokuu", "toukokuuta"], ["kesäkuu", "kesäkuuta"], ["heinäkuu", "heinäkuuta"],
      ["elokuu", "elokuuta"], ["syyskuu", "syyskuuta"], ["lokakuu", "lokakuuta"], ["marraskuu", "marraskuuta"],
      ["joulukuu", "joulukuuta"],
    ],
    numberWords: [
      "yhden": 1, "kahden": 2, "kolmen": 3, "neljän": 4, "viiden": 5, "kuuden": 6, "seitsemän": 7, "kahdeksan": 8,
      "yhdeksän": 9, "kymmenen": 10, "toinen": 2,
    ],
    unitWords: units(
      ["päivä", "päivän", "päivää"], ["viikko", "viikon", "viikkoa"], ["kuukausi", "kuukauden", "kuukautta"],
      ["vuosi", "vuoden", "vuotta"]),
    and: ["ja"],
    fillers: ["klo", "kello", "alkaen", "mennessä"],
    patterns: [
      ("tänään", .offset(days: 0)),
      ("huomenna", .offset(days: 1)),
      ("ylihuomenna", .offset(days: 2)),
      (#"ensi\s+{wd}"#, .nextWeekday),
      (#"{wd}"#, .weekday),
      (#"ensi\s+viikolla"#, .nextWeek),
      (#"ensi\s+kuussa"#, .later(.monthly)),
      (#"ensi\s+vuonna"#, .later(.yearly)),
      (#"(?:{n}\s+)?{u}\s+(?:päästä|kuluttua)"#, .later(nil)),
      (#"(?<d>\d{1,2})\.\s*{mo}(?:\s+(?<y>\d{4}))?"#, .dayOfNamedMonth),
      (#"(?<d>\d{1,2})\.(?<m>\d{1,2})\.(?<y>\d{4})?"#, .dayOfMonth),
      (#"(?:klo|kello)\s+(?<h>\d{1,2})(?:[:.](?<min>\d{2}))?"#, .time),
      (#"(?:klo\s+)?keskipäivällä"#, .fixedTime(hour: 12)),
      (#"joka\s+päivä|päivittäin"#, .every(.daily, interval: 1)),
      (#"joka\s+arkipäivä|arkisin|arkipäivisin"#, .everyWorkday),
      (#"joka\s+{wds}"#, .everyWeekdays),
      (#"(?<wds>(?:maanantai|tiistai|keskiviikko|torstai|perjantai|lauantai|sunnuntai)sin)"#, .everyWeekdays),
      (#"joka\s+viikko|viikoittain"#, .every(.weekly, interval: 1)),
      (#"joka\s+kuukausi|kuukausittain"#, .every(.monthly, interval: 1)),
      (#"joka\s+vuosi|vuosittain"#, .every(.yearly, interval: 1)),
      (#"joka\s+(?<n>\d{1,3})\.\s+{u}"#, .every(nil, interval: nil)),
      (#"joka\s+toinen\s+{u}"#, .every(nil, interval: 2)),
      (#"{n}\s+{u}\s+välein"#, .every(nil, interval: nil)),
    ])

  static let italian = PhraseVocabulary(
    code: "it",
    weekdayNames: [
      ["lunedì", "lunedi"], ["martedì", "martedi"], ["mercoledì", "mercoledi"], ["giovedì", "giovedi"],
      ["venerdì", "venerdi"], ["sabato"], ["domenica"],
    ],
    monthNames: [
      ["gennaio", "gen"], ["febbraio", "feb"], ["marzo", "mar"], ["aprile", "apr"], ["maggio", "mag"],
      ["giugno", "giu"], ["luglio", "lug"], ["agosto", "ago"], ["settembre", "set"], ["ottobre", "ott"],
      ["novembre", "nov"], ["dicembre", "dic"],
    ],
    numberWords: [
      "un": 1, "uno": 1, "una": 1, "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7, "otto": 8,
      "nove": 9, "dieci": 10,
    ],
    unitWords: units(["giorno", "giorni"], ["settimana", "settimane"], ["mese", "mesi"], ["anno", "anni"]),
    and: ["e"],
    fillers: ["alle", "ore", "il", "di", "entro", "dal"],
    patterns: [
      ("oggi", .offset(days: 0)),
      ("domani", .offset(days: 1)),
      ("dopodomani", .offset(days: 2)),
      (#"{wd}\s+prossim[oa]"#, .nextWeekday),
      (#"prossim[oa]\s+{wd}"#, .nextWeekday),
      (#"(?:di\s+)?{wd}"#, .weekday),
      (#"(?:la\s+)?prossima\s+settimana|(?:la\s+)?settimana\s+prossima"#, .nextWeek),
      (#"(?:il\s+)?prossimo\s+mese|(?:il\s+)?mese\s+prossimo"#, .later(.monthly)),
      (#"(?:il\s+)?prossimo\s+anno|(?:l')?anno\s+prossimo"#, .later(.yearly)),
      (#"(?:tra|fra)\s+{n}\s+{u}"#, .later(nil)),
      (#"(?:il\s+)?(?<d>\d{1,2})\s+{mo}(?:\s+(?<y>\d{4}))?"#, .dayOfNamedMonth),
      (#"(?:il\s+)?(?<d>\d{1,2})/(?<m>\d{1,2})(?:/(?<y>\d{4}))?"#, .dayOfMonth),
      (#"(?:alle(?:\s+ore)?|ore)\s+(?<h>\d{1,2})(?:[:.](?<min>\d{2}))?"#, .time),
      (#"(?:a\s+)?mezzogiorno"#, .fixedTime(hour: 12)),
      (#"ogni\s+giorno|tutti\s+i\s+giorni|quotidianamente"#, .every(.daily, interval: 1)),
      (#"ogni\s+giorno\s+feriale|(?:nei|tutti\s+i)\s+giorni\s+feriali"#, .everyWorkday),
      (#"(?:ogni|tutti\s+i|tutte\s+le)\s+{wds}"#, .everyWeekdays),
      (#"ogni\s+settimana|settimanalmente"#, .every(.weekly, interval: 1)),
      (#"ogni\s+mese|mensilmente"#, .every(.monthly, interval: 1)),
      (#"ogni\s+anno|annualmente"#, .every(.yearly, interval: 1)),
      (#"ogni\s+{n}\s+{u}"#, .every(nil, interval: nil)),
    ])

  static let chinese = PhraseVocabulary(
    code: "zh",
    unspaced: true,
    weekdayNames: [
      ["星期一", "周一", "礼拜一"], ["星期二", "周二", "礼拜二"], ["星期三", "周三", "礼拜三"], ["星期四", "周四", "礼拜四"],
      ["星期五", "周五", "礼拜五"], ["星期六", "周六", "礼拜六"], ["星期日", "星期天", "周日", "周天", "礼拜日", "礼拜天"],
    ],
    unitWords: units(["天", "日"], ["周", "星期", "礼拜"], ["月"], ["年"]),
    meridiems: [
      "上午": .am, "早上": .am, "凌晨": .am, "下午": .pm, "晚上": .pm, "傍晚": .pm, "中午": .noon,
    ],
    patterns: [
      ("今天", .offset(days: 0)),
      ("明天", .offset(days: 1)),
      ("后天", .offset(days: 2)),
      (#"下个?{wd}"#, .nextWeekday),
      (#"(?:这个?|本)?{wd}"#, .weekday),
      (#"下个?(?:周|星期|礼拜)"#, .nextWeek),
      (#"下个月"#, .later(.monthly)),
      (#"明年"#, .later(.yearly)),
      (#"(?<n>\d{1,3}|[一二两三四五六七八九十]{1,3})\s*个?(?<u>天|周|星期|礼拜|月|年)(?:以后|之后|后)"#, .later(nil)),
      (#"(?:(?<y>\d{4})年)?(?<m>\d{1,2})月(?<d>\d{1,2})[日号]"#, .dayOfMonth),
      (
        #"(?<ap>上午|早上|凌晨|下午|晚上|傍晚|中午)?\s*(?<h>\d{1,2}|[一二两三四五六七八九十]{1,3})[点點](?:(?<min>\d{1,2})分|(?<half>半))?"#,
        .time
      ),
      (#"每天|每日"#, .every(.daily, interval: 1)),
      (#"每个?工作日"#, .everyWorkday),
      (#"每(?<wds>(?:周|星期|礼拜)[一二三四五六日天](?:[、,，和](?:周|星期|礼拜)?[一二三四五六日天])*)"#, .everyWeekdays),
      (#"每(?:个)?(?:周|星期|礼拜)"#, .every(.weekly, interval: 1)),
      (#"每个?月"#, .every(.monthly, interval: 1)),
      (#"每年"#, .every(.yearly, interval: 1)),
      (#"每(?<n>\d{1,3}|[两二三四五六七八九十]{1,3})个?(?<u>天|周|星期|礼拜|月|年)"#, .every(nil, interval: nil)),
    ])
}
