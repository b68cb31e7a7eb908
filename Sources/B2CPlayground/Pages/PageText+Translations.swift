// PageText+Translations: the playground's pages in the languages of the sample's documentation. Constant.

extension PageText {
  static let german = PageText(
    signInTitle: "Anmelden", signInHeading: "Mit Ihrer E-Mail-Adresse anmelden", email: "E-Mail-Adresse",
    password: "Passwort", signIn: "Anmelden", forgotPassword: "Passwort vergessen?",
    noAccount: "Sie haben noch kein Konto?", signUpNow: "Jetzt registrieren", cancel: "Abbrechen",
    signUpTitle: "Konto erstellen", displayName: "Anzeigename", newPassword: "Neues Passwort",
    confirmPassword: "Neues Passwort bestätigen", create: "Erstellen", resetTitle: "Passwort zurücksetzen",
    resetHeading: "Geben Sie Ihre E-Mail-Adresse ein. Wir senden einen Bestätigungscode dorthin.",
    resetButton: "Passwort ändern", profileTitle: "Profil bearbeiten", save: "Speichern",
    wrongPassword: "Ihr Passwort ist falsch.", unknownAccount: "Ihr Konto wurde nicht gefunden.",
    emailTaken: "Ein Benutzer mit dieser ID ist bereits vorhanden. Bitte wählen Sie eine andere.",
    invalidEmail: "Bitte geben Sie eine gültige E-Mail-Adresse ein.",
    weakPassword:
      "Das Passwort muss 8 bis 64 Zeichen lang sein und mindestens drei der folgenden enthalten: Kleinbuchstaben, Großbuchstaben, Ziffern, Symbole.",
    passwordsDiffer: "Die Passwörter stimmen nicht überein. Bitte geben Sie in beiden Feldern dasselbe Passwort ein.",
    nameRequired: "Bitte geben Sie einen Anzeigenamen ein.", signedOutTitle: "Abgemeldet",
    signedOut: "Sie haben sich abgemeldet. Sie können dieses Fenster schließen.",
    errorTitle: "Leider gibt es ein Problem bei Ihrer Anmeldung.", sendCode: "Bestätigungscode senden",
    codeSent: "Ein Bestätigungscode wurde an %@ gesendet. Geben Sie ihn ein und wählen Sie ein neues Passwort.",
    verificationCode: "Bestätigungscode",
    wrongCode: "Dieser Code ist falsch oder abgelaufen. Bitte fordern Sie einen neuen an.",
    tooManyAttempts: "Sie haben es zu oft versucht. Bitte versuchen Sie es später erneut.")

  static let dutch = PageText(
    signInTitle: "Aanmelden", signInHeading: "Aanmelden met uw e-mailadres", email: "E-mailadres",
    password: "Wachtwoord", signIn: "Aanmelden", forgotPassword: "Wachtwoord vergeten?",
    noAccount: "Hebt u nog geen account?", signUpNow: "Nu registreren", cancel: "Annuleren",
    signUpTitle: "Uw account maken", displayName: "Weergavenaam", newPassword: "Nieuw wachtwoord",
    confirmPassword: "Nieuw wachtwoord bevestigen", create: "Maken", resetTitle: "Uw wachtwoord herstellen",
    resetHeading: "Voer uw e-mailadres in. We sturen er een verificatiecode naartoe.",
    resetButton: "Wachtwoord wijzigen", profileTitle: "Uw profiel bewerken", save: "Opslaan",
    wrongPassword: "Uw wachtwoord is onjuist.", unknownAccount: "We kunnen uw account niet vinden.",
    emailTaken: "Er bestaat al een gebruiker met deze ID. Kies een andere.",
    invalidEmail: "Voer een geldig e-mailadres in.",
    weakPassword:
      "Het wachtwoord moet 8 tot 64 tekens lang zijn en minstens drie van de volgende bevatten: kleine letters, hoofdletters, cijfers, symbolen.",
    passwordsDiffer: "De wachtwoorden komen niet overeen. Voer in beide velden hetzelfde wachtwoord in.",
    nameRequired: "Voer een weergavenaam in.", signedOutTitle: "Afgemeld",
    signedOut: "U bent afgemeld. U kunt dit venster sluiten.",
    errorTitle: "Er is helaas een probleem bij het aanmelden.", sendCode: "Verificatiecode verzenden",
    codeSent: "Er is een verificatiecode naar %@ gestuurd. Voer die in en kies een nieuw wachtwoord.",
    verificationCode: "Verificatiecode", wrongCode: "Deze code is onjuist of verlopen. Vraag een nieuwe aan.",
    tooManyAttempts: "U hebt het te vaak geprobeerd. Probeer het later opnieuw.")

  static let finnish = PageText(
    signInTitle: "Kirjaudu sisään", signInHeading: "Kirjaudu sähköpostiosoitteellasi", email: "Sähköpostiosoite",
    password: "Salasana", signIn: "Kirjaudu sisään", forgotPassword: "Unohditko salasanasi?",
    noAccount: "Eikö sinulla ole tiliä?", signUpNow: "Rekisteröidy nyt", cancel: "Peruuta",
    signUpTitle: "Luo tili", displayName: "Näyttönimi", newPassword: "Uusi salasana",
    confirmPassword: "Vahvista uusi salasana", create: "Luo", resetTitle: "Palauta salasana",
    resetHeading: "Anna sähköpostiosoitteesi. Lähetämme siihen vahvistuskoodin.",
    resetButton: "Vaihda salasana", profileTitle: "Muokkaa profiilia", save: "Tallenna",
    wrongPassword: "Salasana on väärä.", unknownAccount: "Tiliäsi ei löydy.",
    emailTaken: "Käyttäjä tällä tunnuksella on jo olemassa. Valitse toinen.",
    invalidEmail: "Anna kelvollinen sähköpostiosoite.",
    weakPassword:
      "Salasanan on oltava 8–64 merkkiä pitkä ja sisällettävä vähintään kolmea seuraavista: pieniä kirjaimia, isoja kirjaimia, numeroita, symboleja.",
    passwordsDiffer: "Salasanat eivät täsmää. Kirjoita sama salasana molempiin kenttiin.",
    nameRequired: "Anna näyttönimi.", signedOutTitle: "Kirjauduttu ulos",
    signedOut: "Olet kirjautunut ulos. Voit sulkea tämän ikkunan.",
    errorTitle: "Valitettavasti kirjautumisessasi on ongelma.", sendCode: "Lähetä vahvistuskoodi",
    codeSent: "Vahvistuskoodi lähetettiin osoitteeseen %@. Anna se ja valitse uusi salasana.",
    verificationCode: "Vahvistuskoodi", wrongCode: "Koodi on väärä tai vanhentunut. Pyydä uusi koodi.",
    tooManyAttempts: "Olet yrittänyt liian monta kertaa. Yritä myöhemmin uudelleen.")

  static let italian = PageText(
    signInTitle: "Accedi", signInHeading: "Accedi con il tuo indirizzo email", email: "Indirizzo email",
    password: "Password", signIn: "Accedi", forgotPassword: "Password dimenticata?",
    noAccount: "Non hai un account?", signUpNow: "Registrati ora", cancel: "Annulla",
    signUpTitle: "Crea il tuo account", displayName: "Nome visualizzato", newPassword: "Nuova password",
    confirmPassword: "Conferma la nuova password", create: "Crea", resetTitle: "Reimposta la password",
    resetHeading: "Inserisci il tuo indirizzo email. Ti invieremo un codice di verifica.",
    resetButton: "Cambia password", profileTitle: "Modifica il tuo profilo", save: "Salva",
    wrongPassword: "La password non è corretta.", unknownAccount: "Non riusciamo a trovare il tuo account.",
    emailTaken: "Esiste già un utente con questo ID. Scegline un altro.",
    invalidEmail: "Inserisci un indirizzo email valido.",
    weakPassword:
      "La password deve avere da 8 a 64 caratteri e contenere almeno tre tra: lettere minuscole, lettere maiuscole, cifre, simboli.",
    passwordsDiffer: "Le password non corrispondono. Inserisci la stessa password in entrambi i campi.",
    nameRequired: "Inserisci un nome visualizzato.", signedOutTitle: "Disconnesso",
    signedOut: "Ti sei disconnesso. Puoi chiudere questa finestra.",
    errorTitle: "Purtroppo si è verificato un problema durante l'accesso.", sendCode: "Invia codice di verifica",
    codeSent: "Un codice di verifica è stato inviato a %@. Inseriscilo e scegli una nuova password.",
    verificationCode: "Codice di verifica", wrongCode: "Il codice è errato o scaduto. Richiedine uno nuovo.",
    tooManyAttempts: "Hai effettuato troppi tentativi. Riprova più tardi.")

  static let chinese = PageText(
    signInTitle: "登录", signInHeading: "使用电子邮件地址登录", email: "电子邮件地址",
    password: "密码", signIn: "登录", forgotPassword: "忘记密码？",
    noAccount: "还没有账户？", signUpNow: "立即注册", cancel: "取消",
    signUpTitle: "创建账户", displayName: "显示名称", newPassword: "新密码",
    confirmPassword: "确认新密码", create: "创建", resetTitle: "重置密码",
    resetHeading: "请输入您的电子邮件地址。我们会向其发送验证码。",
    resetButton: "更改密码", profileTitle: "编辑个人资料", save: "保存",
    wrongPassword: "密码不正确。", unknownAccount: "找不到您的账户。",
    emailTaken: "已存在具有此 ID 的用户。请选择其他 ID。",
    invalidEmail: "请输入有效的电子邮件地址。",
    weakPassword: "密码长度必须为 8 到 64 个字符，并且至少包含以下三类：小写字母、大写字母、数字、符号。",
    passwordsDiffer: "两次输入的密码不一致。请在两个字段中输入相同的密码。",
    nameRequired: "请输入显示名称。", signedOutTitle: "已退出登录",
    signedOut: "您已退出登录。您可以关闭此窗口。",
    errorTitle: "抱歉，登录时出现问题。", sendCode: "发送验证码", codeSent: "验证码已发送至 %@。请输入验证码并选择新密码。",
    verificationCode: "验证码", wrongCode: "验证码错误或已过期。请重新获取。",
    tooManyAttempts: "尝试次数过多。请稍后再试。")
}
