/**
 * Settings: payment types, document numberings, users and their rights, the devices' settings, and
 * (issue 21) the e-mail receipts with their outbox, the backups and the registers' last contact.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { PRESETS } from '../../../http/presets';
import { RIGHTS } from '../../../http/rights';
import { DataTable, type Column } from '../components/DataTable';
import { Editor } from '../components/Editor';
import { Field, type AnyForm, type Option } from '../components/Field';
import { Rows } from '../components/Rows';
import { Badge, Button, Card, PageHeader, Segmented, Tabs, Empty, Notice, Spinner, toast } from '../components/ui';
import { useAll, useLoad, useOptions } from '../lib/data';
import { checks, useForm } from '../lib/form';
import { useQuery } from '../lib/router';
import { LANGUAGE_NAMES, LANGUAGES, messages, pick, type Entry } from '../../shared/i18n';
import { allowed, SETTINGS_TABS } from '../lib/access';
import { refreshSession, useCan } from '../lib/session';
import { api, ApiError, describeError, download, path } from '../lib/api';
import { dateTime, quantity, time } from '../lib/format';
import { ENUMS, options } from '../lib/enums';
import type { Category, Device, FiscalDevice, Health, HubUser, Numbering, OrderEndpoint, PaymentType, Stock } from '../../shared/types';
import { driverWord, endpointTypeWord, envWord, fiscalDriver } from '../lib/device-words';
import { rightWord } from '../lib/rights-words';
import type { Backup, ReceiptEmail, ReceiptSettings, ReceiptSettingsInput } from '../lib/wire';
import { useEditParam } from './Catalog';

const t = messages({
  title: { en: 'Settings', sk: 'Nastavenia', cs: 'Nastavení' },
  subtitle: { en: 'How the shop is set up. Changes reach the registers at once.', sk: 'Ako je prevádzka nastavená. Zmeny sa hneď prejavia na pokladniach.', cs: 'Jak je provozovna nastavená. Změny se hned projeví na pokladnách.' },
  notYours: { en: 'This part is not part of your work here', sk: 'Táto časť nie je súčasťou vašej práce', cs: 'Tato část není součástí vaší práce' },
  active: { en: 'Active', sk: 'Aktívny', cs: 'Aktivní' },
  inactive: { en: 'Inactive', sk: 'Neaktívny', cs: 'Neaktivní' },
  state: { en: 'State', sk: 'Stav', cs: 'Stav' },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  yes: { en: 'Yes', sk: 'Áno', cs: 'Ano' },
  no: { en: 'No', sk: 'Nie', cs: 'Ne' },
  none: { en: 'None', sk: 'Žiadna', cs: 'Žádná' },
  secretKept: { en: 'Stored, never shown; type to replace', sk: 'Uložené, nikdy sa nezobrazí; napíšte nové', cs: 'Uloženo, nikdy se nezobrazí; napište nové' },
  byDefault: { en: 'Default', sk: 'Predvolené', cs: 'Výchozí' },
  number: { en: 'Number', sk: 'Číslo', cs: 'Číslo' },
  numberShort: { en: 'No.', sk: 'Č.', cs: 'Č.' },
  category: { en: 'Category', sk: 'Kategória', cs: 'Kategorie' },
  address: { en: 'Address', sk: 'Adresa', cs: 'Adresa' },
  enterNumber: { en: 'Enter a number.', sk: 'Zadajte číslo.', cs: 'Zadejte číslo.' },
  // payment types
  paymentTypes: { en: 'Payment types', sk: 'Typy platieb', cs: 'Typy plateb' },
  paymentType: { en: 'Payment type', sk: 'Typ platby', cs: 'Typ platby' },
  newPaymentType: { en: 'New payment type', sk: 'Nový typ platby', cs: 'Nový typ platby' },
  paymentTypeN: { en: 'Payment type {n}', sk: 'Typ platby {n}', cs: 'Typ platby {n}' },
  givesChange: { en: 'Gives change', sk: 'Vydáva sa z nej', cs: 'Vrací se z ní' },
  noPaymentTypes: { en: 'No payment types', sk: 'Žiadne typy platieb', cs: 'Žádné typy plateb' },
  numberHint: { en: 'The registers refer to it by this number.', sk: 'Pokladne ho poznajú podľa tohto čísla.', cs: 'Pokladny ho znají podle tohoto čísla.' },
  changeHint: { en: 'An overpayment is handed back (cash).', sk: 'Preplatok sa vracia (hotovosť).', cs: 'Přeplatek se vrací (hotovost).' },
  // numberings
  numberings: { en: 'Document numberings', sk: 'Číselné rady dokladov', cs: 'Číselné řady dokladů' },
  numbering: { en: 'Numbering', sk: 'Číselný rad', cs: 'Číselná řada' },
  newNumbering: { en: 'New numbering', sk: 'Nový číselný rad', cs: 'Nová číselná řada' },
  document: { en: 'Document', sk: 'Doklad', cs: 'Doklad' },
  documentType: { en: 'Document type', sk: 'Typ dokladu', cs: 'Typ dokladu' },
  documents: { en: '{type} documents', sk: 'Doklady {type}', cs: 'Doklady {type}' },
  format: { en: 'Format', sk: 'Formát', cs: 'Formát' },
  nextNumber: { en: 'Next number', sk: 'Ďalšie číslo', cs: 'Další číslo' },
  next: { en: 'Next: {n}', sk: 'Ďalšie: {n}', cs: 'Další: {n}' },
  restarts: { en: 'Restarts', sk: 'Začína odznova', cs: 'Začíná znovu' },
  never: { en: 'never', sk: 'nikdy', cs: 'nikdy' },
  every: { en: 'every {n}{unit}', sk: 'každý {n}{unit}', cs: 'každý {n}{unit}' },
  noNumberings: { en: 'No numberings', sk: 'Žiadne číselné rady', cs: 'Žádné číselné řady' },
  formatCheck: { en: 'Use text and the tokens {yyyy} {yy} {MM} {dd}, with exactly one counter {iN}, e.g. P-{yyyy}{MM}{i4}.', sk: 'Použite text a značky {yyyy} {yy} {MM} {dd} s práve jedným počítadlom {iN}, napr. P-{yyyy}{MM}{i4}.', cs: 'Použijte text a značky {yyyy} {yy} {MM} {dd} s právě jedním počítadlem {iN}, např. P-{yyyy}{MM}{i4}.' },
  formatHint: { en: 'e.g. P-{yyyy}{MM}{i4} → P-2026110001', sk: 'napr. P-{yyyy}{MM}{i4} → P-2026110001', cs: 'např. P-{yyyy}{MM}{i4} → P-2026110001' },
  repeat: { en: 'Restart the counter each period', sk: 'Počítadlo začína v každom období odznova', cs: 'Počítadlo začíná v každém období znovu' },
  oneActive: { en: 'One active numbering per document type.', sk: 'Pre každý typ dokladu jeden aktívny rad.', cs: 'Pro každý typ dokladu jedna aktivní řada.' },
  periods: { en: 'Periods', sk: 'Obdobia', cs: 'Období' },
  addPeriod: { en: 'Add period', sk: 'Pridať obdobie', cs: 'Přidat období' },
  noPeriod: { en: 'No period: documents of this type cannot be numbered.', sk: 'Žiadne obdobie: doklady tohto typu sa nedajú očíslovať.', cs: 'Žádné období: doklady tohoto typu nelze očíslovat.' },
  starts: { en: 'Starts', sk: 'Začiatok', cs: 'Začátek' },
  period: { en: 'Period', sk: 'Obdobie', cs: 'Období' },
  length: { en: 'Length', sk: 'Dĺžka', cs: 'Délka' },
  lastIssued: { en: 'Last number issued', sk: 'Posledné vydané číslo', cs: 'Poslední vydané číslo' },
  // users
  users: { en: 'Users', sk: 'Používatelia', cs: 'Uživatelé' },
  user: { en: 'User', sk: 'Používateľ', cs: 'Uživatel' },
  newUser: { en: 'New user', sk: 'Nový používateľ', cs: 'Nový uživatel' },
  userName: { en: 'User name', sk: 'Používateľské meno', cs: 'Uživatelské jméno' },
  fullName: { en: 'Full name', sk: 'Celé meno', cs: 'Celé jméno' },
  personName: { en: 'Name', sk: 'Meno', cs: 'Jméno' },
  fullNameHint: { en: 'Shown on tickets and kitchen orders.', sk: 'Zobrazuje sa na účtoch a objednávkach v kuchyni.', cs: 'Zobrazuje se na účtech a objednávkách v kuchyni.' },
  rights: { en: 'Rights', sk: 'Práva', cs: 'Práva' },
  allRightsShort: { en: 'all', sk: 'všetky', cs: 'všechna' },
  noUsers: { en: 'No users', sk: 'Žiadni používatelia', cs: 'Žádní uživatelé' },
  noSpaces: { en: 'No spaces at the start or end.', sk: 'Bez medzier na začiatku a na konci.', cs: 'Bez mezer na začátku a na konci.' },
  password: { en: 'Password', sk: 'Heslo', cs: 'Heslo' },
  newPassword: { en: 'New password', sk: 'Nové heslo', cs: 'Nové heslo' },
  keepPassword: { en: 'Leave empty to keep the current one.', sk: 'Nechajte prázdne, ak má zostať súčasné.', cs: 'Nechte prázdné, pokud má zůstat současné.' },
  pin: { en: 'PIN for the registers', sk: 'PIN pre pokladne', cs: 'PIN pro pokladny' },
  newPin: { en: 'New PIN', sk: 'Nový PIN', cs: 'Nový PIN' },
  pinHint: { en: '4 to 8 digits: a quick login on a paired register. The password still works.', sk: '4 až 8 číslic: rýchle prihlásenie na spárovanej pokladni. Heslo funguje aj naďalej.', cs: '4 až 8 číslic: rychlé přihlášení na spárované pokladně. Heslo funguje i nadále.' },
  hasPinHint: { en: 'This user has a PIN. Leave empty to keep it.', sk: 'Tento používateľ má PIN. Nechajte prázdne, ak má zostať.', cs: 'Tento uživatel má PIN. Nechte prázdné, pokud má zůstat.' },
  pinDigits: { en: 'A PIN is 4 to 8 digits.', sk: 'PIN má 4 až 8 číslic.', cs: 'PIN má 4 až 8 číslic.' },
  removePin: { en: 'Remove the PIN', sk: 'Odstrániť PIN', cs: 'Odstranit PIN' },
  pinColumn: { en: 'PIN', sk: 'PIN', cs: 'PIN' },
  canLogIn: { en: 'Can log in', sk: 'Môže sa prihlásiť', cs: 'Může se přihlásit' },
  language: { en: 'Language', sk: 'Jazyk', cs: 'Jazyk' },
  shopsLanguage: { en: "The shop's", sk: 'Podľa prevádzky', cs: 'Podle provozovny' },
  languageHint: { en: "Of the manager's page and the kitchen display for this user.", sk: 'Stránky pre vedúceho a kuchynského displeja pre tohto používateľa.', cs: 'Stránky pro vedoucího a kuchyňského displeje pro tohoto uživatele.' },
  presets: { en: 'Presets', sk: 'Predvoľby', cs: 'Předvolby' },
  allRights: { en: 'All rights', sk: 'Všetky práva', cs: 'Všechna práva' },
  noRights: { en: 'None', sk: 'Žiadne', cs: 'Žádná' },
  groupTickets: { en: 'Tickets and sales', sk: 'Účty a predaj', cs: 'Účty a prodej' },
  groupCustomers: { en: 'Customers', sk: 'Zákazníci', cs: 'Zákazníci' },
  groupProducts: { en: 'Products and stock', sk: 'Produkty a sklad', cs: 'Produkty a sklad' },
  groupDevices: { en: 'Devices and printing', sk: 'Zariadenia a tlač', cs: 'Zařízení a tisk' },
  groupAdmin: { en: 'Administration', sk: 'Správa', cs: 'Správa' },
  // devices
  deviceKind: { en: 'Device kind', sk: 'Druh zariadenia', cs: 'Druh zařízení' },
  registers: { en: 'Registers', sk: 'Pokladne', cs: 'Pokladny' },
  kitchenPrinters: { en: 'Kitchen printers', sk: 'Kuchynské tlačiarne', cs: 'Kuchyňské tiskárny' },
  fiscalPrinters: { en: 'Fiscal printers', sk: 'Fiškálne tlačiarne', cs: 'Fiskální tiskárny' },
  registersAndOther: { en: 'Registers and other devices', sk: 'Pokladne a iné zariadenia', cs: 'Pokladny a jiná zařízení' },
  device: { en: 'Device', sk: 'Zariadenie', cs: 'Zařízení' },
  newDevice: { en: 'New device', sk: 'Nové zariadenie', cs: 'Nové zařízení' },
  kind: { en: 'Kind', sk: 'Druh', cs: 'Druh' },
  receiptsOn: { en: 'Receipts on', sk: 'Doklady na', cs: 'Doklady na' },
  billsOn: { en: 'Bills on', sk: 'Účty na', cs: 'Účty na' },
  noDevices: { en: 'No devices', sk: 'Žiadne zariadenia', cs: 'Žádná zařízení' },
  deviceNameHint: { en: 'Staff pick this name when they log in on the device.', sk: 'Personál vyberá tento názov pri prihlásení na zariadení.', cs: 'Personál vybírá tento název při přihlášení na zařízení.' },
  description: { en: 'Description', sk: 'Popis', cs: 'Popis' },
  settings: { en: 'Settings', sk: 'Nastavenia', cs: 'Nastavení' },
  fiscalForReceipts: { en: 'Fiscal printer for receipts', sk: 'Fiškálna tlačiareň na doklady', cs: 'Fiskální tiskárna na doklady' },
  printerForBills: { en: 'Printer for bills', sk: 'Tlačiareň na účty', cs: 'Tiskárna na účty' },
  stockSells: { en: 'Stock it sells from', sk: 'Sklad, z ktorého predáva', cs: 'Sklad, ze kterého prodává' },
  maxQuantity: { en: 'Largest quantity per item', sk: 'Najväčšie množstvo na položku', cs: 'Největší množství na položku' },
  openedPrices: { en: 'Staff may type prices', sk: 'Personál smie zadať cenu', cs: 'Personál smí zadat cenu' },
  lockAfter: { en: 'Lock after idle (seconds)', sk: 'Zamknúť po nečinnosti (sekundy)', cs: 'Zamknout po nečinnosti (sekundy)' },
  lockAfterHint: { en: 'The register asks for a PIN again. Empty: 60; 0: never.', sk: 'Pokladňa si znova vypýta PIN. Prázdne: 60; 0: nikdy.', cs: 'Pokladna si znovu vyžádá PIN. Prázdné: 60; 0: nikdy.' },
  enterSeconds: { en: 'Enter whole seconds, 0 to 86400.', sk: 'Zadajte celé sekundy, 0 až 86400.', cs: 'Zadejte celé sekundy, 0 až 86400.' },
  printersTitle: { en: 'Kitchen printers and displays', sk: 'Kuchynské tlačiarne a displeje', cs: 'Kuchyňské tiskárny a displeje' },
  printer: { en: 'Printer', sk: 'Tlačiareň', cs: 'Tiskárna' },
  newPrinter: { en: 'New printer', sk: 'Nová tlačiareň', cs: 'Nová tiskárna' },
  newKitchenPrinter: { en: 'New kitchen printer', sk: 'Nová kuchynská tlačiareň', cs: 'Nová kuchyňská tiskárna' },
  model: { en: 'Model', sk: 'Model', cs: 'Model' },
  noKitchenPrinters: { en: 'No kitchen printers', sk: 'Žiadne kuchynské tlačiarne', cs: 'Žádné kuchyňské tiskárny' },
  printerAddressCheck: { en: 'Like tcp://192.168.1.50:9100 or serial:/dev/ttyUSB0?baudRate=19200', sk: 'Napríklad tcp://192.168.1.50:9100 alebo serial:/dev/ttyUSB0?baudRate=19200', cs: 'Například tcp://192.168.1.50:9100 nebo serial:/dev/ttyUSB0?baudRate=19200' },
  printerAddressHint: { en: 'tcp://192.168.1.50:9100 for a network printer, serial:/dev/ttyUSB0?baudRate=19200 for a cable.', sk: 'tcp://192.168.1.50:9100 pre sieťovú tlačiareň, serial:/dev/ttyUSB0?baudRate=19200 pre kábel.', cs: 'tcp://192.168.1.50:9100 pro síťovou tiskárnu, serial:/dev/ttyUSB0?baudRate=19200 pro kabel.' },
  inactivePrinterHint: { en: 'An inactive printer gets no orders.', sk: 'Neaktívna tlačiareň nedostáva objednávky.', cs: 'Neaktivní tiskárna nedostává objednávky.' },
  routing: { en: 'What it gets', sk: 'Čo dostáva', cs: 'Co dostává' },
  routedCategories: { en: 'Every product of these categories', sk: 'Každý produkt týchto kategórií', cs: 'Každý produkt těchto kategorií' },
  routedCategoriesHint: { en: 'Besides the products that name this printer themselves.', sk: 'Okrem produktov, ktoré túto tlačiareň uvádzajú samy.', cs: 'Kromě produktů, které tuto tiskárnu uvádějí samy.' },
  noCategories: { en: 'No categories yet (Catalog › Categories).', sk: 'Zatiaľ žiadne kategórie (Katalóg › Kategórie).', cs: 'Zatím žádné kategorie (Katalog › Kategorie).' },
  mirrorOf: { en: 'Also everything that this one gets', sk: 'Aj všetko, čo dostáva', cs: 'Také vše, co dostává' },
  mirrorOfHint: { en: 'A display beside a printer shows what the printer prints, and goes on doing so as the menu changes.', sk: 'Displej pri tlačiarni ukazuje, čo tlačiareň tlačí, aj keď sa menu zmení.', cs: 'Displej u tiskárny ukazuje, co tiskárna tiskne, i když se menu změní.' },
  kitchenTicket: { en: 'Kitchen ticket', sk: 'Kuchynský lístok', cs: 'Kuchyňský lístek' },
  beep: { en: 'Beep on a new order', sk: 'Pípnuť pri novej objednávke', cs: 'Pípnout při nové objednávce' },
  highlight: { en: 'Highlight the order number', sk: 'Zvýrazniť číslo objednávky', cs: 'Zvýraznit číslo objednávky' },
  tall: { en: 'Tall letters', sk: 'Vysoké písmo', cs: 'Vysoké písmo' },
  wideLetters: { en: 'Wide letters', sk: 'Široké písmo', cs: 'Široké písmo' },
  fiscalPrinter: { en: 'Fiscal printer', sk: 'Fiškálna tlačiareň', cs: 'Fiskální tiskárna' },
  newFiscalPrinter: { en: 'New fiscal printer', sk: 'Nová fiškálna tlačiareň', cs: 'Nová fiskální tiskárna' },
  driver: { en: 'Driver', sk: 'Ovládač', cs: 'Ovladač' },
  fiscalDay: { en: 'Fiscal day', sk: 'Fiškálny deň', cs: 'Fiskální den' },
  noFiscalPrinters: { en: 'No fiscal printers', sk: 'Žiadne fiškálne tlačiarne', cs: 'Žádné fiskální tiskárny' },
  fiscalMemory: { en: 'Fiscal memory {n}', sk: 'Fiškálna pamäť {n}', cs: 'Fiskální paměť {n}' },
  // receipts & e-mail
  receiptsTitle: { en: 'Receipts sent by e-mail', sk: 'Doklady posielané e-mailom', cs: 'Doklady posílané e-mailem' },
  shopHeader: { en: 'Shop header', sk: 'Hlavička prevádzky', cs: 'Hlavička provozovny' },
  shopName: { en: 'Shop name', sk: 'Názov prevádzky', cs: 'Název provozovny' },
  shopNameHint: { en: 'Empty: {name} (the hub’s setting).', sk: 'Prázdne: {name} (nastavenie hubu).', cs: 'Prázdné: {name} (nastavení hubu).' },
  addressLines: { en: 'Header lines', sk: 'Riadky hlavičky', cs: 'Řádky hlavičky' },
  footerLines: { en: 'Footer lines', sk: 'Riadky päty', cs: 'Řádky patičky' },
  linesHint: { en: 'One line per row: address, company ID, VAT ID…', sk: 'Každý riadok zvlášť: adresa, IČO, IČ DPH…', cs: 'Každý řádek zvlášť: adresa, IČO, DIČ…' },
  footerHint: { en: 'e.g. Thank you for your visit.', sk: 'napr. Ďakujeme za návštevu.', cs: 'např. Děkujeme za návštěvu.' },
  smtpTitle: { en: 'Mail server (SMTP)', sk: 'Poštový server (SMTP)', cs: 'Poštovní server (SMTP)' },
  ownServer: { en: 'Use this mail server', sk: 'Použiť tento poštový server', cs: 'Použít tento poštovní server' },
  ownServerHint: { en: 'Off: the server the hub was installed with, if any.', sk: 'Vypnuté: server nastavený pri inštalácii hubu, ak existuje.', cs: 'Vypnuto: server nastavený při instalaci hubu, pokud existuje.' },
  host: { en: 'Server', sk: 'Server', cs: 'Server' },
  port: { en: 'Port', sk: 'Port', cs: 'Port' },
  portHint: { en: 'Empty: 465 with TLS from the start, else 587.', sk: 'Prázdne: 465 pri TLS od začiatku, inak 587.', cs: 'Prázdné: 465 při TLS od začátku, jinak 587.' },
  tls: { en: 'Encryption', sk: 'Šifrovanie', cs: 'Šifrování' },
  tlsImplicit: { en: 'TLS from the start (port 465)', sk: 'TLS od začiatku (port 465)', cs: 'TLS od začátku (port 465)' },
  tlsRequired: { en: 'STARTTLS, required', sk: 'STARTTLS, povinné', cs: 'STARTTLS, povinné' },
  tlsOpportunistic: { en: 'STARTTLS when offered', sk: 'STARTTLS, ak ho server ponúka', cs: 'STARTTLS, pokud ho server nabízí' },
  tlsOff: { en: 'None (plain text)', sk: 'Žiadne (nešifrované)', cs: 'Žádné (nešifrované)' },
  smtpUser: { en: 'User', sk: 'Používateľ', cs: 'Uživatel' },
  smtpPassword: { en: 'Password', sk: 'Heslo', cs: 'Heslo' },
  passwordStored: { en: 'A password is stored: leave empty to keep it.', sk: 'Heslo je uložené: nechajte prázdne, ak má zostať.', cs: 'Heslo je uložené: nechte prázdné, pokud má zůstat.' },
  passwordNone: { en: 'No password stored.', sk: 'Nie je uložené žiadne heslo.', cs: 'Není uloženo žádné heslo.' },
  from: { en: 'Sender (From)', sk: 'Odosielateľ (From)', cs: 'Odesílatel (From)' },
  fromHint: { en: 'e.g. Bistro <pokladna@bistro.sk>', sk: 'napr. Bistro <pokladna@bistro.sk>', cs: 'např. Bistro <pokladna@bistro.sk>' },
  inUse: { en: 'In use now', sk: 'Teraz sa používa', cs: 'Nyní se používá' },
  srcSettings: { en: 'the server set here', sk: 'server nastavený tu', cs: 'server nastavený zde' },
  srcEnvironment: { en: 'the server the hub was installed with', sk: 'server nastavený pri inštalácii hubu', cs: 'server nastavený při instalaci hubu' },
  srcNone: { en: 'no server: e-mail receipts are not sent', sk: 'žiadny server: doklady sa e-mailom neposielajú', cs: 'žádný server: doklady se e-mailem neposílají' },
  save: { en: 'Save changes', sk: 'Uložiť zmeny', cs: 'Uložit změny' },
  saved: { en: 'Receipt settings saved.', sk: 'Nastavenia dokladov uložené.', cs: 'Nastavení dokladů uloženo.' },
  needsRight: { en: 'Changing this needs the right “{right}”.', sk: 'Na zmenu potrebujete právo „{right}“.', cs: 'Ke změně potřebujete právo „{right}“.' },
  portCheck: { en: 'A port from 1 to 65535.', sk: 'Port od 1 do 65535.', cs: 'Port od 1 do 65535.' },
  // outbox
  outboxTitle: { en: 'E-mail receipts', sk: 'Doklady poslané e-mailom', cs: 'Doklady poslané e-mailem' },
  created: { en: 'Created', sk: 'Vytvorený', cs: 'Vytvořen' },
  to: { en: 'To', sk: 'Komu', cs: 'Komu' },
  attempts: { en: 'Attempts', sk: 'Pokusy', cs: 'Pokusy' },
  lastError: { en: 'Last error', sk: 'Posledná chyba', cs: 'Poslední chyba' },
  sentAt: { en: 'Sent', sk: 'Odoslaný', cs: 'Odeslán' },
  stQueued: { en: 'Waiting', sk: 'Čaká', cs: 'Čeká' },
  stSent: { en: 'Sent', sk: 'Odoslaný', cs: 'Odeslán' },
  stFailed: { en: 'Failed', sk: 'Zlyhal', cs: 'Selhal' },
  resend: { en: 'Resend', sk: 'Poslať znova', cs: 'Poslat znovu' },
  resent: { en: 'The e-mail to {to} is queued again.', sk: 'E-mail pre {to} je znova v poradí na odoslanie.', cs: 'E-mail pro {to} je znovu ve frontě k odeslání.' },
  noEmails: { en: 'No e-mail receipts yet', sk: 'Zatiaľ žiadne doklady poslané e-mailom', cs: 'Zatím žádné doklady poslané e-mailem' },
  noEmailsText: { en: 'A receipt is e-mailed when a ticket is closed with the guest’s address.', sk: 'Doklad sa pošle e-mailom, keď sa účet uzavrie s adresou hosťa.', cs: 'Doklad se pošle e-mailem, když se účet uzavře s adresou hosta.' },
  filterState: { en: 'Show', sk: 'Zobraziť', cs: 'Zobrazit' },
  all: { en: 'All', sk: 'Všetky', cs: 'Všechny' },
  // backups
  backupsTitle: { en: 'Backups', sk: 'Zálohy', cs: 'Zálohy' },
  backupNow: { en: 'Make a backup now', sk: 'Zálohovať teraz', cs: 'Zálohovat nyní' },
  backupMade: { en: 'Backup {file} made.', sk: 'Záloha {file} vytvorená.', cs: 'Záloha {file} vytvořena.' },
  file: { en: 'File', sk: 'Súbor', cs: 'Soubor' },
  size: { en: 'Size', sk: 'Veľkosť', cs: 'Velikost' },
  madeAt: { en: 'Made', sk: 'Vytvorená', cs: 'Vytvořena' },
  download: { en: 'Download', sk: 'Stiahnuť', cs: 'Stáhnout' },
  downloaded: { en: 'Downloaded {file}.', sk: 'Stiahnutý súbor {file}.', cs: 'Stažen soubor {file}.' },
  noBackups: { en: 'No backups yet', sk: 'Zatiaľ žiadne zálohy', cs: 'Zatím žádné zálohy' },
  backupsHint: { en: 'Copy backups off the hub PC now and then: a backup on the same disk does not survive a broken disk.', sk: 'Zálohy občas skopírujte mimo počítača s hubom: záloha na tom istom disku poruchu disku neprežije.', cs: 'Zálohy občas zkopírujte mimo počítač s hubem: záloha na stejném disku poruchu disku nepřežije.' },
  backupRight: { en: 'Making and downloading backups needs the right “{right}”.', sk: 'Vytvárať a sťahovať zálohy môžete len s právom „{right}“.', cs: 'Vytvářet a stahovat zálohy lze jen s právem „{right}“.' },
  // registers' contact
  contactTitle: { en: 'Registers and their last contact', sk: 'Pokladne a ich posledné spojenie', cs: 'Pokladny a jejich poslední spojení' },
  contactHint: { en: 'When the hub last heard from each device. One that has been silent for over {n} minutes while the shop is open may be off or off the network.', sk: 'Kedy sa hub naposledy ozval každému zariadeniu. Zariadenie, ktoré počas otváracích hodín mlčí viac ako {n} minút, môže byť vypnuté alebo mimo siete.', cs: 'Kdy se hub naposledy spojil s každým zařízením. Zařízení, které během otevírací doby mlčí déle než {n} minut, může být vypnuté nebo mimo síť.' },
  lastContact: { en: 'Last contact', sk: 'Posledné spojenie', cs: 'Poslední spojení' },
  never2: { en: 'Never', sk: 'Nikdy', cs: 'Nikdy' },
  justNow: { en: 'just now', sk: 'práve teraz', cs: 'právě teď' },
  minAgo: { en: '{n} min ago', sk: 'pred {n} min', cs: 'před {n} min' },
  hAgo: { en: '{h} h {m} min ago', sk: 'pred {h} h {m} min', cs: 'před {h} h {m} min' },
  silent: { en: 'Silent', sk: 'Bez spojenia', cs: 'Bez spojení' },
  inTouch: { en: 'In touch', sk: 'Spojené', cs: 'Spojeno' },
  noContact: { en: 'No contact known', sk: 'Spojenie nie je známe', cs: 'Spojení není známo' },
  refresh: { en: 'Refresh', sk: 'Obnoviť', cs: 'Obnovit' },
});

export function Settings({ tab: asked }: { tab: string }) {
  const can = useCan();
  const tabs = SETTINGS_TABS.filter((x) => allowed(x, can)).map((x) => ({ ...x, label: pick(x.label) }));
  const tab = tabs.some((x) => x.id === asked) ? asked : null;
  return (
    <div class="page">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Tabs tabs={tabs} current={tab ?? ''} />
      {tab === null && <Empty icon="alert" title={t('notYours')} />}
      {tab === 'payments' && <PaymentTypes />}
      {tab === 'numberings' && <Numberings />}
      {tab === 'users' && <Users />}
      {tab === 'devices' && <DeviceSettings />}
      {tab === 'receipts' && <ReceiptSettingsTab />}
      {tab === 'outbox' && <Outbox />}
      {tab === 'backups' && <Backups />}
      {tab === 'registers' && <RegistersContact />}
    </div>
  );
}

/** The users form: a user as the hub answers it, plus the password, which the hub takes but never answers. */
/** The user as the form holds it: a new password and PIN typed (empty: kept), or the PIN to be removed. */
type UserForm = HubUser & { password?: string; pin?: string; removePin?: boolean };

/** A list with a "New" button and an editor for the row opened: what every settings section is. */
function Section<T extends object>(props: {
  title: string;
  resource: string;
  createRight: string;
  newLabel: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  defaultSort?: string;
  empty: { title: string; text?: string };
  editor: (key: string | null, close: () => void) => ComponentChildren;
}) {
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  return (
    <>
      <Card
        title={props.title}
        actions={
          can(props.createRight) && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')}>
              {props.newLabel}
            </Button>
          )
        }
      >
        <DataTable<T> resource={props.resource} label={props.title} columns={props.columns} rowKey={props.rowKey} defaultSort={props.defaultSort} onOpen={(r) => setEdit(props.rowKey(r))} selected={edit} empty={props.empty} />
      </Card>
      {edit && props.editor(edit === 'new' ? null : edit, () => setEdit(null))}
    </>
  );
}

const CATEGORIES: Record<string, Entry> = {
  Cash: { en: 'Cash', sk: 'Hotovosť', cs: 'Hotovost' },
  CreditCard: { en: 'Card', sk: 'Platobná karta', cs: 'Platební karta' },
  Voucher: { en: 'Voucher', sk: 'Poukážka', cs: 'Poukázka' },
  Other: { en: 'Other', sk: 'Iné', cs: 'Jiné' },
};
const categoryLabel = (c: string) => (CATEGORIES[c] ? pick(CATEGORIES[c]) : c);

const active = (on: boolean) => (on ? <Badge tone="good">{t('active')}</Badge> : <Badge>{t('inactive')}</Badge>);

function PaymentTypes() {
  return (
    <Section<PaymentType>
      title={t('paymentTypes')}
      resource="paymenttypes"
      createRight="PaymentTypeCreate"
      newLabel={t('newPaymentType')}
      rowKey={(p) => String(p.number)}
      columns={[
        { id: 'number', title: t('numberShort'), sort: 'number', align: 'right', render: (p) => p.number },
        { id: 'name', title: t('name'), render: (p) => <b>{p.name || categoryLabel(p.category)}</b> },
        { id: 'category', title: t('category'), sort: 'category', render: (p) => categoryLabel(p.category) },
        { id: 'change', title: t('givesChange'), render: (p) => (p.isChangeable ? t('yes') : t('no')) },
        { id: 'active', title: t('state'), render: (p) => active(p.isActive) },
      ]}
      empty={{ title: t('noPaymentTypes') }}
      editor={(key, close) => (
        <Editor<PaymentType>
          resource="paymenttypes"
          editKey={key}
          noun={t('paymentType')}
          title={(v, isNew) => (isNew ? t('newPaymentType') : v.name || t('paymentTypeN', { n: v.number }))}
          defaults={{ number: null as unknown as number, name: '', category: 'Cash', isChangeable: false, isActive: true }}
          rights={{ create: 'PaymentTypeCreate', update: 'PaymentTypeUpdate', delete: 'PaymentTypeDelete' }}
          onClose={close}
        >
          {(form, { isNew }) => (
            <div class="form-grid">
              <Field form={form} name="number" label={t('number')} kind="number" integer min={1} max={2147483647} required disabled={!isNew} hint={t('numberHint')} />
              <Field form={form} name="name" label={t('name')} required />
              <Field form={form} name="category" label={t('category')} kind="select" options={options(ENUMS.paymentCategory, categoryLabel)} required />
              <Field form={form} name="isChangeable" label={t('givesChange')} kind="switch" hint={t('changeHint')} />
              <Field form={form} name="isActive" label={t('active')} kind="switch" />
            </div>
          )}
        </Editor>
      )}
    />
  );
}

/** The next document number a numbering would issue now: what the manager wants to see. */
function preview(format: string, next: number): string {
  const d = new Date();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return format
    .replace(/\{yyyy\}/g, String(d.getFullYear()))
    .replace(/\{yy\}/g, pad(d.getFullYear() % 100))
    .replace(/\{MM\}/g, pad(d.getMonth() + 1))
    .replace(/\{dd\}/g, pad(d.getDate()))
    .replace(/\{i(\d+)\}/g, (_, w: string) => pad(next, Number(w)));
}

const FORMAT = /^(?:[^{}]|\{(?:yyyy|yy|MM|dd)\})*\{i(?:[1-9]|1\d|20)\}(?:[^{}]|\{(?:yyyy|yy|MM|dd)\})*$/;
const formatCheck = (v: unknown, all: Record<string, unknown>) => checks.pattern(FORMAT, t('formatCheck'))(v, all);
const lastEntry = (n: Numbering) => n.numberings[n.numberings.length - 1];

const PERIOD_UNITS: Record<string, Entry> = {
  Day: { en: 'day', sk: 'deň', cs: 'den' },
  Week: { en: 'week', sk: 'týždeň', cs: 'týden' },
  Month: { en: 'month', sk: 'mesiac', cs: 'měsíc' },
  Year: { en: 'year', sk: 'rok', cs: 'rok' },
};
const PERIOD_UNITS_PLURAL: Record<string, Entry> = {
  Day: { en: 'days', sk: 'dni', cs: 'dny' },
  Week: { en: 'weeks', sk: 'týždne', cs: 'týdny' },
  Month: { en: 'months', sk: 'mesiace', cs: 'měsíce' },
  Year: { en: 'years', sk: 'roky', cs: 'roky' },
};
const unitLabel = (unit: string) => (PERIOD_UNITS[unit] ? pick(PERIOD_UNITS[unit]) : unit);
const TRANSFER_TYPES: Record<string, Entry> = {
  Income: { en: 'Income', sk: 'Príjemka', cs: 'Příjemka' },
  Outcome: { en: 'Outcome', sk: 'Výdajka', cs: 'Výdejka' },
  Transfer: { en: 'Transfer', sk: 'Prevodka', cs: 'Převodka' },
  Sale: { en: 'Sale', sk: 'Predaj', cs: 'Prodej' },
  Invoice: { en: 'Invoice', sk: 'Faktúra', cs: 'Faktura' },
  Correction: { en: 'Correction', sk: 'Oprava', cs: 'Oprava' },
};
const transferLabel = (type: string) => (TRANSFER_TYPES[type] ? pick(TRANSFER_TYPES[type]) : type);

function restarts(n: Numbering): string {
  const last = lastEntry(n);
  if (!n.repeat || !last) return t('never');
  const { amount, unit } = last.period;
  return amount > 1 ? t('every', { n: `${amount} `, unit: PERIOD_UNITS_PLURAL[unit] ? pick(PERIOD_UNITS_PLURAL[unit]) : unit }) : t('every', { n: '', unit: unitLabel(unit) });
}

function Numberings() {
  return (
    <Section<Numbering>
      title={t('numberings')}
      resource="stocktransfernumberings"
      createRight="StockTransferNumberingCreate"
      newLabel={t('newNumbering')}
      rowKey={(n) => n.id}
      columns={[
        { id: 'type', title: t('document'), sort: 'type', render: (n) => <b>{transferLabel(n.type)}</b> },
        { id: 'format', title: t('format'), render: (n) => <span class="mono">{n.format}</span> },
        { id: 'next', title: t('nextNumber'), render: (n) => <span class="mono">{preview(n.format, (lastEntry(n)?.currentNumber ?? 0) + 1)}</span> },
        { id: 'period', title: t('restarts'), render: restarts, secondary: true },
        { id: 'active', title: t('state'), render: (n) => active(n.isActive) },
      ]}
      empty={{ title: t('noNumberings') }}
      editor={(key, close) => (
        <Editor<Numbering>
          resource="stocktransfernumberings"
          editKey={key}
          noun={t('numbering')}
          wide
          title={(v, isNew) => (isNew ? t('newNumbering') : t('documents', { type: transferLabel(v.type) }))}
          subtitle={(v) => t('next', { n: preview(v.format ?? '', (v.numberings?.[v.numberings.length - 1]?.currentNumber ?? 0) + 1) })}
          defaults={{ id: '', isActive: true, type: 'Income', format: '', repeat: true, numberings: [{ isActive: true, startAt: new Date(new Date().getFullYear(), 0, 1).toISOString(), period: { unit: 'Month', amount: 1 }, currentNumber: 0 } as Numbering['numberings'][number]] }}
          rights={{ create: 'StockTransferNumberingCreate', update: 'StockTransferNumberingUpdate', delete: 'StockTransferNumberingDelete' }}
          toBody={(v, isNew) => {
            const { id, ...rest } = v;
            return isNew ? rest : { id, ...rest };
          }}
          onClose={close}
        >
          {(form) => (
            <>
              <div class="form-grid">
                <Field form={form} name="type" label={t('documentType')} kind="select" options={options(ENUMS.transferType, transferLabel)} required />
                <Field form={form} name="format" label={t('format')} required validate={formatCheck} hint={t('formatHint')} />
                <Field form={form} name="repeat" label={t('repeat')} kind="switch" />
                <Field form={form} name="isActive" label={t('active')} kind="switch" hint={t('oneActive')} />
              </div>
              <Rows form={form} name="numberings" label={t('periods')} addLabel={t('addPeriod')} empty={t('noPeriod')} newRow={() => ({ isActive: true, startAt: new Date().toISOString(), period: { unit: 'Month', amount: 1 }, currentNumber: 0 })}>
                {(p) => (
                  <>
                    <Field form={form} name={`${p}.startAt`} label={t('starts')} kind="date" required />
                    <Field form={form} name={`${p}.period.unit`} label={t('period')} kind="select" options={options(ENUMS.periodUnit, unitLabel)} required />
                    <Field form={form} name={`${p}.period.amount`} label={t('length')} kind="number" integer min={1} max={1000} required />
                    <Field form={form} name={`${p}.currentNumber`} label={t('lastIssued')} kind="number" integer min={0} required />
                    <Field form={form} name={`${p}.isActive`} label={t('active')} kind="switch" />
                  </>
                )}
              </Rows>
            </>
          )}
        </Editor>
      )}
    />
  );
}

/** Rights grouped the way a manager thinks about them. */
const RIGHT_GROUPS: Array<[Parameters<typeof t>[0], (r: string) => boolean]> = [
  ['groupTickets', (r) => r.startsWith('Ticket') || r === 'Storno'],
  ['groupCustomers', (r) => r.startsWith('Customer')],
  ['groupProducts', (r) => /^(Plu|Stock|Modifier)/.test(r) && !r.startsWith('StockTransferNumbering')],
  ['groupDevices', (r) => /^(Device|OrderEndpoint|FiscalDevice|FiscalReport|OrderProcess)/.test(r)],
  ['groupAdmin', () => true],
];

function rightGroups(): Array<{ title: string; rights: Option[] }> {
  const left = new Set<string>(RIGHTS);
  return RIGHT_GROUPS.map(([title, test]) => {
    const rights = [...left].filter(test);
    rights.forEach((r) => left.delete(r));
    return { title: t(title), rights: rights.map((r) => ({ value: r, label: rightWord(r) })) };
  });
}

/** The presets' names and purposes in the page's language (hub/http/presets.ts holds them in English). */
const PRESET_WORDS: Record<string, { name: Entry; purpose: Entry }> = {
  Waiter: {
    name: { en: 'Waiter', sk: 'Čašník', cs: 'Číšník' },
    purpose: {
      en: 'Opens tables and adds to their own tickets; sees open tickets and their own sales, the catalog, never customers or users.',
      sk: 'Otvára stoly a pridáva na svoje účty; vidí otvorené účty a svoje tržby, katalóg, nikdy zákazníkov ani používateľov.',
      cs: 'Otevírá stoly a přidává na své účty; vidí otevřené účty a své tržby, katalog, nikdy zákazníky ani uživatele.',
    },
  },
  Cashier: {
    name: { en: 'Cashier', sk: 'Pokladník', cs: 'Pokladní' },
    purpose: {
      en: 'A waiter who also takes payment: closes any ticket, gives discounts, takes items back (Storno), prints X reports.',
      sk: 'Čašník, ktorý aj inkasuje: uzatvára akékoľvek účty, dáva zľavy, berie položky späť (storno), tlačí X správy.',
      cs: 'Číšník, který i inkasuje: uzavírá jakékoli účty, dává slevy, bere položky zpět (storno), tiskne X zprávy.',
    },
  },
  Manager: {
    name: { en: 'Manager', sk: 'Vedúci', cs: 'Vedoucí' },
    purpose: {
      en: 'Runs the shop: catalog, stock, customers, devices, users, reports, backups; every right but the monitoring one.',
      sk: 'Riadi prevádzku: katalóg, sklad, zákazníci, zariadenia, používatelia, prehľady, zálohy; všetky práva okrem monitorovania.',
      cs: 'Řídí provozovnu: katalog, sklad, zákazníci, zařízení, uživatelé, přehledy, zálohy; všechna práva kromě monitorování.',
    },
  },
  'Kitchen display': {
    name: { en: 'Kitchen display', sk: 'Kuchynský displej', cs: 'Kuchyňský displej' },
    purpose: {
      en: 'The pass or a kitchen screen logged in by a user (a paired display needs no user): moves orders, reads nothing else.',
      sk: 'Výdaj alebo kuchynská obrazovka prihlásená používateľom (spárovaný displej používateľa nepotrebuje): posúva objednávky, nič iné nečíta.',
      cs: 'Výdej nebo kuchyňská obrazovka přihlášená uživatelem (spárovaný displej uživatele nepotřebuje): posouvá objednávky, nic jiného nečte.',
    },
  },
};

function RightsField({ form, disabled }: { form: AnyForm; disabled?: boolean }) {
  const chosen = (form.get('rights') as string[] | undefined) ?? [];
  return (
    <fieldset class="rights" disabled={disabled}>
      <legend>{t('rights')}</legend>
      <div class="rights-tools" role="group" aria-label={t('presets')}>
        {PRESETS.map((p) => (
          <Button key={p.name} small variant="ghost" title={PRESET_WORDS[p.name] ? pick(PRESET_WORDS[p.name].purpose) : p.purpose} onClick={() => form.set('rights', [...p.rights])}>
            {PRESET_WORDS[p.name] ? pick(PRESET_WORDS[p.name].name) : p.name}
          </Button>
        ))}
        <Button small variant="ghost" onClick={() => form.set('rights', [...RIGHTS])}>
          {t('allRights')}
        </Button>
        <Button small variant="ghost" onClick={() => form.set('rights', [])}>
          {t('noRights')}
        </Button>
      </div>
      {rightGroups().map((g) => {
        const inGroup = new Set(g.rights.map((o) => o.value));
        return (
          <Field
            key={g.title}
            label={g.title}
            kind="checklist"
            options={g.rights}
            value={chosen.filter((r) => inGroup.has(r))}
            onChange={(v) => form.set('rights', [...chosen.filter((r) => !inGroup.has(r)), ...(v as string[])])}
          />
        );
      })}
    </fieldset>
  );
}

function Users() {
  return (
    <Section<HubUser>
      title={t('users')}
      resource="users"
      createRight="UserCreate"
      newLabel={t('newUser')}
      rowKey={(u) => u.id}
      defaultSort="userName"
      columns={[
        { id: 'userName', title: t('userName'), sort: 'userName', render: (u) => <b>{u.userName}</b> },
        { id: 'name', title: t('personName'), render: (u) => u.name || '—' },
        { id: 'rights', title: t('rights'), render: (u) => (u.rights.length === RIGHTS.length ? t('allRightsShort') : `${u.rights.length}`) },
        { id: 'pin', title: t('pinColumn'), render: (u) => (u.hasPin ? t('yes') : '—'), secondary: true },
        { id: 'active', title: t('state'), render: (u) => active(u.isActive) },
      ]}
      empty={{ title: t('noUsers') }}
      editor={(key, close) => (
        <Editor<UserForm>
          resource="users"
          editKey={key}
          noun={t('user')}
          wide
          title={(v, isNew) => (isNew ? t('newUser') : v.name || v.userName)}
          defaults={{ id: '', userName: '', name: '', isActive: true, rights: [], password: '', pin: '', removePin: false, language: null }}
          rights={{ create: 'UserCreate', update: 'UserUpdate', delete: 'UserDelete' }}
          toBody={(v, isNew) => {
            const { id, password, pin, removePin, hasPin: _hasPin, ...rest } = v;
            // An empty password or PIN keeps the stored one (the hub never sends them back); null removes a PIN.
            // The select's empty choice is the shop's language: null to the hub.
            const pinChange = pin ? { pin } : removePin ? { pin: null } : {};
            return { ...(isNew ? {} : { id }), ...rest, language: rest.language || null, ...(password ? { password } : {}), ...pinChange };
          }}
          onClose={close}
        >
          {(form, { isNew, canEdit }) => (
            <>
              <div class="form-grid">
                <Field form={form} name="userName" label={t('userName')} required validate={(v, all) => checks.pattern(/^\S(.*\S)?$/, t('noSpaces'))(v, all)} autoComplete="off" />
                <Field form={form} name="name" label={t('fullName')} hint={t('fullNameHint')} />
                <Field form={form} name="password" label={isNew ? t('password') : t('newPassword')} kind="password" required={isNew} autoComplete="new-password" hint={isNew ? undefined : t('keepPassword')} />
                <Field
                  form={form}
                  name="pin"
                  label={form.values.hasPin ? t('newPin') : t('pin')}
                  kind="password"
                  autoComplete="off"
                  maxLength={8}
                  disabled={!!form.values.removePin}
                  hint={form.values.hasPin ? t('hasPinHint') : t('pinHint')}
                  validate={(v) => (typeof v === 'string' && v && !/^\d{4,8}$/.test(v) ? t('pinDigits') : null)}
                />
                {form.values.hasPin && <Field form={form} name="removePin" label={t('removePin')} kind="switch" />}
                <Field form={form} name="isActive" label={t('canLogIn')} kind="switch" />
                <Field
                  form={form}
                  name="language"
                  label={t('language')}
                  kind="select"
                  options={[{ value: '', label: t('shopsLanguage') }, ...LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))]}
                  hint={t('languageHint')}
                />
              </div>
              <RightsField form={form} disabled={!canEdit} />
            </>
          )}
        </Editor>
      )}
    />
  );
}

/** Settings are strings; a yes/no setting is "true", "false" or not set (the device's default). */
const yesNo = (): Option[] => [
  { value: '', label: t('byDefault') },
  { value: 'true', label: t('yes') },
  { value: 'false', label: t('no') },
];

/** Drops settings left empty, so "default" really is the device's default. */
function withSettings<T extends { settings: Record<string, string> }>(v: T): T {
  return { ...v, settings: Object.fromEntries(Object.entries(v.settings ?? {}).filter(([, s]) => s !== '' && s !== null && s !== undefined)) };
}

/**
 * Settings of a device that this page does not know by name, editable as text; and its secret
 * settings, which the hub names but never answers (CONTRACT §12): a password field each, empty keeps
 * the stored value, a value typed replaces it.
 */
function OtherSettings({ form, known }: { form: AnyForm; known: string[] }) {
  const settings = (form.get('settings') as Record<string, string> | undefined) ?? {};
  const plain = (k: string) => !known.includes(k) && /^[^.[\]]+$/.test(k);
  const secret = ((form.get('secretSettings') as string[] | undefined) ?? []).filter(plain);
  const other = Object.keys(settings).filter((k) => plain(k) && !secret.includes(k));
  return (
    <>
      {other.map((k) => (
        <Field key={k} form={form} name={`settings.${k}`} label={k} />
      ))}
      {secret.map((k) => (
        <Field key={k} form={form} name={`settings.${k}`} label={k} kind="password" placeholder={t('secretKept')} autoComplete="new-password" />
      ))}
    </>
  );
}

function DeviceSettings() {
  const [q, setQuery] = useQuery();
  const kind = q.get('kind') ?? 'registers';
  return (
    <>
      <Segmented
        label={t('deviceKind')}
        value={kind}
        onChange={(v) => setQuery({ kind: v === 'registers' ? null : v, edit: null, page: null, sort: null })}
        options={[
          { value: 'registers', label: t('registers') },
          { value: 'printers', label: t('kitchenPrinters') },
          { value: 'fiscal', label: t('fiscalPrinters') },
        ]}
      />
      {kind === 'registers' && <Registers />}
      {kind === 'printers' && <Printers />}
      {kind === 'fiscal' && <FiscalPrinters />}
    </>
  );
}

const REGISTER_SETTINGS = ['DefaultFiscalName', 'DefaultOrderEndpointName', 'DefaultStockName', 'MaxQuantity', 'OpenedPrices', 'LockAfterSeconds'];

const envLabel = envWord;

function Registers() {
  const fiscal = useOptions<FiscalDevice>('fiscaldevices', (f) => f.name);
  const printers = useOptions<OrderEndpoint>('orderendpoints', (p) => p.name);
  const stocks = useOptions<Stock>('stocks', (s) => s.name);
  return (
    <Section<Device>
      title={t('registersAndOther')}
      resource="devices"
      createRight="DeviceCreate"
      newLabel={t('newDevice')}
      rowKey={(d) => d.name}
      columns={[
        { id: 'name', title: t('name'), sort: 'name', render: (d) => <b>{d.name}</b> },
        { id: 'env', title: t('kind'), sort: 'envName', render: (d) => envLabel(d.envName) },
        { id: 'fiscal', title: t('receiptsOn'), render: (d) => d.settings.DefaultFiscalName || '—', secondary: true },
        { id: 'printer', title: t('billsOn'), render: (d) => d.settings.DefaultOrderEndpointName || '—', secondary: true },
        { id: 'active', title: t('state'), render: (d) => active(d.isActive) },
      ]}
      empty={{ title: t('noDevices') }}
      editor={(key, close) => (
        <Editor<Device>
          resource="devices"
          editKey={key}
          noun={t('device')}
          wide
          title={(v, isNew) => (isNew ? t('newDevice') : v.name)}
          defaults={{ name: '', isActive: true, envName: 'CashRegister', description: '', roles: [], preferences: {}, settings: {} }}
          rights={{ create: 'DeviceCreate', update: 'DeviceUpdate', delete: 'DeviceDelete' }}
          toBody={withSettings}
          onClose={close}
        >
          {(form, { isNew }) => (
            <>
              <div class="form-grid">
                <Field form={form} name="name" label={t('name')} required disabled={!isNew} hint={isNew ? t('deviceNameHint') : undefined} />
                <Field form={form} name="envName" label={t('kind')} kind="select" options={options(ENUMS.envName, envLabel)} required />
                <Field form={form} name="description" label={t('description')} wide />
                <Field form={form} name="isActive" label={t('active')} kind="switch" />
              </div>
              <h3>{t('settings')}</h3>
              <div class="form-grid">
                <Field form={form} name="settings.DefaultFiscalName" label={t('fiscalForReceipts')} kind="select" emptyOption={t('none')} options={fiscal} />
                <Field form={form} name="settings.DefaultOrderEndpointName" label={t('printerForBills')} kind="select" emptyOption={t('none')} options={printers} />
                <Field form={form} name="settings.DefaultStockName" label={t('stockSells')} kind="select" emptyOption={t('none')} options={stocks} />
                <Field form={form} name="settings.MaxQuantity" label={t('maxQuantity')} validate={(v, all) => checks.pattern(/^\d+([.,]\d+)?$/, t('enterNumber'))(v, all)} />
                <Field form={form} name="settings.OpenedPrices" label={t('openedPrices')} kind="select" options={yesNo()} />
                <Field
                  form={form}
                  name="settings.LockAfterSeconds"
                  label={t('lockAfter')}
                  hint={t('lockAfterHint')}
                  validate={(v) => (typeof v === 'string' && v && !(/^\d{1,5}$/.test(v) && Number(v) <= 86_400) ? t('enterSeconds') : null)}
                />
                <OtherSettings form={form} known={REGISTER_SETTINGS} />
              </div>
            </>
          )}
        </Editor>
      )}
    />
  );
}

const PRINTER_SETTINGS = ['IsBeepEnabled', 'HighlightOrderNumber', 'DoubleHeightFont', 'DoubleWidthFont'];

function Printers() {
  return (
    <Section<OrderEndpoint>
      title={t('printersTitle')}
      resource="orderendpoints"
      createRight="OrderEndpointCreate"
      newLabel={t('newPrinter')}
      rowKey={(p) => p.name}
      columns={[
        { id: 'name', title: t('name'), sort: 'name', render: (p) => <b>{p.name}</b> },
        { id: 'type', title: t('model'), sort: 'type', render: (p) => endpointTypeWord(p.type) },
        { id: 'address', title: t('address'), render: (p) => <span class="mono">{p.address || '—'}</span> },
        { id: 'active', title: t('state'), render: (p) => active(p.isActive) },
      ]}
      empty={{ title: t('noKitchenPrinters') }}
      editor={(key, close) => (
        <Editor<OrderEndpoint>
          resource="orderendpoints"
          editKey={key}
          noun={t('printer')}
          wide
          title={(v, isNew) => (isNew ? t('newKitchenPrinter') : v.name)}
          defaults={{ name: '', isActive: true, type: ENUMS.orderEndpointType[0], address: 'tcp://', settings: {}, categoryNames: [], mirrorOf: null }}
          rights={{ create: 'OrderEndpointCreate', update: 'OrderEndpointUpdate', delete: 'OrderEndpointDelete' }}
          toBody={withSettings}
          onClose={close}
        >
          {(form, { isNew }) => (
            <>
              <div class="form-grid">
                <Field form={form} name="name" label={t('name')} required disabled={!isNew} />
                <Field form={form} name="type" label={t('model')} kind="select" options={options(ENUMS.orderEndpointType, endpointTypeWord)} required />
                <Field
                  form={form}
                  name="address"
                  label={t('address')}
                  wide
                  required={form.values.type !== 'Tablet'}
                  validate={(v, all) => (all.type !== 'Tablet' && typeof v === 'string' && !/^(tcp:\/\/[^\s/:]+(:\d{1,5})?|serial:\S+)$/.test(v) ? t('printerAddressCheck') : null)}
                  hint={t('printerAddressHint')}
                />
                <Field form={form} name="isActive" label={t('active')} kind="switch" hint={t('inactivePrinterHint')} />
              </div>
              <h3>{t('routing')}</h3>
              <PrinterRouting form={form as unknown as AnyForm} self={isNew ? null : (form.values.name ?? null)} />
              <h3>{t('kitchenTicket')}</h3>
              <div class="form-grid">
                <Field form={form} name="settings.IsBeepEnabled" label={t('beep')} kind="select" options={yesNo()} />
                <Field form={form} name="settings.HighlightOrderNumber" label={t('highlight')} kind="select" options={yesNo()} />
                <Field form={form} name="settings.DoubleHeightFont" label={t('tall')} kind="select" options={yesNo()} />
                <Field form={form} name="settings.DoubleWidthFont" label={t('wideLetters')} kind="select" options={yesNo()} />
                <OtherSettings form={form} known={PRINTER_SETTINGS} />
              </div>
            </>
          )}
        </Editor>
      )}
    />
  );
}

/** What an order endpoint gets beyond the plus that name it: whole categories, and what another endpoint gets. */
export function PrinterRouting({ form, self }: { form: AnyForm; self: string | null }) {
  const categories = useAll<Category>('categories', { sort: 'order,name' });
  const endpoints = useOptions<OrderEndpoint>('orderendpoints', (p) => p.name);
  const cats = (categories.data ?? []).map((c) => ({ value: c.name, label: c.name }));
  return (
    <div class="form-grid">
      <Field form={form} name="categoryNames" label={t('routedCategories')} kind="checklist" options={cats} hint={cats.length ? t('routedCategoriesHint') : t('noCategories')} wide />
      <Field form={form} name="mirrorOf" label={t('mirrorOf')} kind="select" emptyOption={t('none')} nullable options={endpoints.filter((o) => o.value !== self)} hint={t('mirrorOfHint')} testId="printer-mirror" />
    </div>
  );
}

const addressHint = (driver: string) => {
  const d = fiscalDriver(driver);
  return d ? pick(d.address.hint) : undefined;
};

function FiscalPrinters() {
  return (
    <Section<FiscalDevice>
      title={t('fiscalPrinters')}
      resource="fiscaldevices"
      createRight="FiscalDeviceCreate"
      newLabel={t('newFiscalPrinter')}
      rowKey={(f) => f.name}
      columns={[
        { id: 'name', title: t('name'), sort: 'name', render: (f) => <b>{f.name}</b> },
        { id: 'driver', title: t('driver'), sort: 'driver', render: (f) => driverWord(f.driver) },
        { id: 'address', title: t('address'), render: (f) => <span class="mono">{f.address}</span> },
        { id: 'day', title: t('fiscalDay'), render: (f) => f.status?.dailySalesReportNumber ?? '—', secondary: true },
        { id: 'active', title: t('state'), render: (f) => active(f.isActive) },
      ]}
      empty={{ title: t('noFiscalPrinters') }}
      editor={(key, close) => (
        <Editor<FiscalDevice>
          resource="fiscaldevices"
          editKey={key}
          noun={t('fiscalPrinter')}
          wide
          title={(v, isNew) => (isNew ? t('newFiscalPrinter') : v.name)}
          subtitle={(v) => (v.status?.fiscalMemorySerialNumber ? t('fiscalMemory', { n: v.status.fiscalMemorySerialNumber }) : undefined)}
          defaults={{ name: '', isActive: true, driver: ENUMS.fiscalDriver[0], address: '', settings: {} }}
          rights={{ create: 'FiscalDeviceCreate', update: 'FiscalDeviceUpdate', delete: 'FiscalDeviceDelete' }}
          toBody={withSettings}
          onClose={close}
        >
          {(form, { isNew }) => (
            <div class="form-grid">
              <Field form={form} name="name" label={t('name')} required disabled={!isNew} />
              <Field form={form} name="driver" label={t('driver')} kind="select" options={options(ENUMS.fiscalDriver, driverWord)} required />
              <Field
                form={form}
                name="address"
                label={t('address')}
                required
                wide
                // The form the driver takes, as it says it itself; the hub checks the address (its refusal lands here).
                placeholder={fiscalDriver(form.values.driver)?.address.example}
                hint={addressHint(form.values.driver)}
              />
              <Field form={form} name="isActive" label={t('active')} kind="switch" />
              <OtherSettings form={form} known={[]} />
            </div>
          )}
        </Editor>
      )}
    />
  );
}

// ---------------------------------------------------------------- receipts & e-mail (issue 21)

interface ReceiptForm {
  shopName: string;
  addressLines: string;
  footerLines: string;
  ownServer: boolean;
  host: string;
  port: number | string | null;
  tls: 'Implicit' | 'Required' | 'Opportunistic' | 'Off';
  user: string;
  password: string;
  from: string;
}

const toForm = (s: ReceiptSettings): ReceiptForm => ({
  shopName: s.shopName ?? '',
  addressLines: s.addressLines.join('\n'),
  footerLines: s.footerLines.join('\n'),
  ownServer: s.smtp !== null,
  host: s.smtp?.host ?? '',
  port: s.smtp?.port ?? null,
  tls: s.smtp?.tls ?? 'Opportunistic',
  user: s.smtp?.user ?? '',
  password: '',
  from: s.smtp?.from ?? '',
});

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

function toBody(v: ReceiptForm, version: number): ReceiptSettingsInput {
  return {
    shopName: v.shopName.trim() || null,
    addressLines: lines(v.addressLines),
    footerLines: lines(v.footerLines),
    smtp: v.ownServer
      ? {
          host: v.host.trim(),
          port: typeof v.port === 'number' ? v.port : null,
          tls: v.tls,
          user: v.user.trim() || null,
          // Write-only: left out, the hub keeps the stored password.
          ...(v.password ? { password: v.password } : {}),
          from: v.from.trim() || null,
        }
      : null,
    _v: version,
  };
}

const TLS_LABELS = () => ({ Implicit: t('tlsImplicit'), Required: t('tlsRequired'), Opportunistic: t('tlsOpportunistic'), Off: t('tlsOff') });

function ReceiptSettingsTab() {
  const can = useCan();
  const loaded = useLoad<ReceiptSettings>('/api/receipts/settings', (signal) => api.get<ReceiptSettings>('/api/receipts/settings', signal), ['receipts/settings']);
  const form = useForm<ReceiptForm>(toForm({ shopName: null, addressLines: [], footerLines: [], smtp: null, effective: { shopName: '', smtpSource: 'None', smtp: null }, _v: 0 }));
  const s = loaded.data;
  // The stored settings fill the form, unless the manager is in the middle of changing them.
  useEffect(() => {
    if (s && !form.dirty) form.reset(toForm(s));
  }, [s]);
  const canEdit = can('ReceiptSettingsUpdate');
  if (!s) return loaded.error ? <Notice tone="bad">{loaded.error}</Notice> : <Spinner />;
  const own = form.values.ownServer;
  const save = () =>
    form.submit(async (v) => {
      try {
        const answer = await api.put<ReceiptSettings>('/api/receipts/settings', toBody(v, s._v) as unknown as Record<string, unknown>);
        form.reset(toForm(answer));
        loaded.reload();
        toast(t('saved'));
      } catch (e) {
        if (e instanceof ApiError && e.isMissingRight) void refreshSession().catch(() => undefined);
        throw e;
      }
    });
  const tls = TLS_LABELS();
  const source = { Settings: t('srcSettings'), Environment: t('srcEnvironment'), None: t('srcNone') }[s.effective.smtpSource];
  const eff = s.effective.smtp;
  return (
    <Card title={t('receiptsTitle')}>
      <form
        class="form"
        noValidate
        data-testid="receipt-settings"
        onSubmit={(e) => {
          e.preventDefault();
          if (canEdit) void save();
        }}
      >
        {!canEdit && <Notice tone="info">{t('needsRight', { right: rightWord('ReceiptSettingsUpdate') })}</Notice>}
        {form.formError && (
          <Notice tone="bad">
            <span data-testid="form-error">{form.formError}</span>
          </Notice>
        )}
        <fieldset class="form-fields stack" disabled={!canEdit}>
          <h3>{t('shopHeader')}</h3>
          <div class="form-grid">
            <Field form={form as unknown as AnyForm} name="shopName" label={t('shopName')} hint={t('shopNameHint', { name: s.effective.shopName })} maxLength={200} testId="rs-shopName" />
            <span />
            <Field form={form as unknown as AnyForm} name="addressLines" label={t('addressLines')} kind="textarea" hint={t('linesHint')} testId="rs-addressLines" />
            <Field form={form as unknown as AnyForm} name="footerLines" label={t('footerLines')} kind="textarea" hint={t('footerHint')} testId="rs-footerLines" />
          </div>
          <h3>{t('smtpTitle')}</h3>
          <Notice tone={s.effective.smtpSource === 'None' ? 'warn' : 'info'}>
            <span data-testid="smtp-in-use">
              {t('inUse')}: {source}
              {eff ? ` — ${eff.host}:${eff.port}` : ''}
            </span>
          </Notice>
          <div class="form-grid">
            <Field form={form as unknown as AnyForm} name="ownServer" label={t('ownServer')} kind="switch" hint={t('ownServerHint')} testId="rs-ownServer" />
            <span />
            {own && (
              <>
                <Field form={form as unknown as AnyForm} name="host" label={t('host')} required placeholder="smtp.example.com" testId="rs-host" />
                <Field form={form as unknown as AnyForm} name="port" label={t('port')} kind="number" integer min={1} max={65535} nullable hint={t('portHint')} testId="rs-port" />
                <Field form={form as unknown as AnyForm} name="tls" label={t('tls')} kind="select" options={Object.entries(tls).map(([value, label]) => ({ value, label }))} required testId="rs-tls" />
                <Field form={form as unknown as AnyForm} name="user" label={t('smtpUser')} autoComplete="off" testId="rs-user" />
                <Field form={form as unknown as AnyForm} name="password" label={t('smtpPassword')} kind="password" autoComplete="new-password" hint={s.smtp?.passwordSet ? t('passwordStored') : t('passwordNone')} testId="rs-password" />
                <Field form={form as unknown as AnyForm} name="from" label={t('from')} hint={t('fromHint')} testId="rs-from" />
              </>
            )}
          </div>
        </fieldset>
        {canEdit && (
          <div>
            <Button type="submit" variant="primary" icon="check" busy={form.busy} data-testid="save">
              {t('save')}
            </Button>
          </div>
        )}
      </form>
    </Card>
  );
}

const STATE_TONES = { Queued: 'info', Sent: 'good', Failed: 'bad' } as const;

function Outbox() {
  const can = useCan();
  const [q, setQuery] = useQuery();
  const state = q.get('state') ?? '';
  const [busy, setBusy] = useState<string | null>(null);
  const resend = async (e: ReceiptEmail) => {
    setBusy(e.id);
    try {
      await api.post(`${path('receipts', 'emails', e.id)}/resend`);
      toast(t('resent', { to: e.to }));
    } catch (err) {
      if (err instanceof ApiError && err.isMissingRight) void refreshSession().catch(() => undefined);
      toast(describeError(err), 'bad');
    } finally {
      setBusy(null);
    }
  };
  const stateLabel = (x: string) => ({ Queued: t('stQueued'), Sent: t('stSent'), Failed: t('stFailed') })[x] ?? x;
  return (
    <Card title={t('outboxTitle')}>
      <Segmented
        label={t('filterState')}
        value={state}
        onChange={(v) => setQuery({ state: v || null, page: null })}
        options={[
          { value: '', label: t('all') },
          { value: 'Queued', label: t('stQueued') },
          { value: 'Failed', label: t('stFailed') },
          { value: 'Sent', label: t('stSent') },
        ]}
      />
      <DataTable<ReceiptEmail>
        resource="receipts/emails"
        label={t('outboxTitle')}
        filters={{ state: state ? `eq:${state}` : null }}
        rowKey={(e) => e.id}
        columns={[
          { id: 'created', title: t('created'), render: (e) => dateTime(e.createdAt) },
          { id: 'to', title: t('to'), render: (e) => <b>{e.to}</b> },
          { id: 'state', title: t('state'), render: (e) => <Badge tone={STATE_TONES[e.state]}>{stateLabel(e.state)}</Badge> },
          { id: 'attempts', title: t('attempts'), sort: 'attempts', align: 'right', render: (e) => e.attempts },
          { id: 'error', title: t('lastError'), render: (e) => <span class="small muted">{e.lastError ?? '—'}</span>, secondary: true },
          { id: 'sent', title: t('sentAt'), render: (e) => (e.sentAt ? dateTime(e.sentAt) : '—'), secondary: true },
          ...(can('TicketClose')
            ? [
                {
                  id: 'resend',
                  title: '',
                  align: 'right' as const,
                  render: (e: ReceiptEmail) => (
                    <Button small icon="mail" busy={busy === e.id} onClick={() => void resend(e)} data-testid={`resend-${e.id}`}>
                      {t('resend')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
        empty={{ title: t('noEmails'), text: t('noEmailsText') }}
      />
    </Card>
  );
}

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${quantity(Math.round(bytes / 102.4) / 10)} kB`;
  return `${quantity(Math.round(bytes / 104857.6) / 10)} MB`;
}

function Backups() {
  const can = useCan();
  const list = useLoad<{ items: Backup[] }>('/api/backups', (signal) => api.get<{ items: Backup[] }>('/api/backups', signal));
  const [making, setMaking] = useState(false);
  const [fetching, setFetching] = useState<string | null>(null);
  const make = async () => {
    setMaking(true);
    try {
      const b = await api.post<Backup>('/api/backups');
      toast(t('backupMade', { file: b.file }));
      list.reload();
    } catch (e) {
      toast(describeError(e), 'bad');
    } finally {
      setMaking(false);
    }
  };
  const get = async (b: Backup) => {
    setFetching(b.file);
    try {
      const file = await download(path('backups', b.file), 'application/octet-stream', b.file);
      toast(t('downloaded', { file }));
    } catch (e) {
      toast(describeError(e), 'bad');
    } finally {
      setFetching(null);
    }
  };
  const items = list.data?.items ?? [];
  return (
    <Card
      title={t('backupsTitle')}
      actions={
        can('Backup') && (
          <Button variant="primary" icon="plus" busy={making} onClick={() => void make()} data-testid="backup-now">
            {t('backupNow')}
          </Button>
        )
      }
    >
      <p class="muted small">{t('backupsHint')}</p>
      {!can('Backup') && <Notice tone="info">{t('backupRight', { right: rightWord('Backup') })}</Notice>}
      {list.error && <Notice tone="bad">{list.error}</Notice>}
      {!list.data && list.loading && <Spinner />}
      {list.data && items.length === 0 && <Empty title={t('noBackups')} />}
      {items.length > 0 && (
        <div class="table-scroll">
          <table class="compact" aria-label={t('backupsTitle')} data-testid="backups">
            <thead>
              <tr>
                <th>{t('madeAt')}</th>
                <th>{t('file')}</th>
                <th class="al-right">{t('size')}</th>
                {can('Backup') && <th />}
              </tr>
            </thead>
            <tbody>
              {items.map((b) => (
                <tr key={b.file} data-file={b.file}>
                  <td>{dateTime(b.createdAt)}</td>
                  <td class="mono">{b.file}</td>
                  <td class="al-right num">{fileSize(b.size)}</td>
                  {can('Backup') && (
                    <td class="al-right">
                      <Button small icon="download" busy={fetching === b.file} onClick={() => void get(b)}>
                        {t('download')}
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** A device silent for longer than this is flagged. */
const SILENT_MIN = 15;

function ago(iso: string, now: number): string {
  const min = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (min < 1) return t('justNow');
  if (min < 60) return t('minAgo', { n: min });
  if (min < 24 * 60) return t('hAgo', { h: Math.floor(min / 60), m: min % 60 });
  return dateTime(iso);
}

function RegistersContact() {
  const health = useLoad<Health>('/api/health', (signal) => api.get<Health>('/api/health', signal), ['devices']);
  const [now, setNow] = useState(Date.now());
  // The "minutes ago" move on by themselves, and the hub is asked again every half minute.
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
      health.reload();
    }, 30_000);
    return () => clearInterval(timer);
  }, []);
  const devices = health.data?.devices ?? [];
  return (
    <Card
      title={t('contactTitle')}
      actions={
        <Button small icon="refresh" busy={health.loading} onClick={() => { setNow(Date.now()); health.reload(); }}>
          {t('refresh')}
        </Button>
      }
    >
      <p class="muted small">{t('contactHint', { n: SILENT_MIN })}</p>
      {health.error && <Notice tone="bad">{health.error}</Notice>}
      {!health.data && health.loading && <Spinner />}
      {health.data && devices.length === 0 && <Empty title={t('noDevices')} />}
      {devices.length > 0 && (
        <div class="table-scroll">
          <table class="compact" aria-label={t('contactTitle')} data-testid="registers">
            <thead>
              <tr>
                <th>{t('name')}</th>
                <th>{t('kind')}</th>
                <th>{t('lastContact')}</th>
                <th>{t('state')}</th>
              </tr>
            </thead>
            <tbody>
              {devices.map((d) => {
                const silent = !d.lastContactAt || now - Date.parse(d.lastContactAt) > SILENT_MIN * 60_000;
                return (
                  <tr key={d.name} data-device={d.name}>
                    <td>
                      <b>{d.name}</b>
                      {!d.isActive && <> {active(false)}</>}
                    </td>
                    <td>{envLabel(d.envName)}</td>
                    <td data-col="contact" title={d.lastContactAt ? dateTime(d.lastContactAt) : undefined}>
                      {d.lastContactAt ? (
                        <>
                          {ago(d.lastContactAt, now)} <span class="muted small">({time(d.lastContactAt)})</span>
                        </>
                      ) : (
                        t('never2')
                      )}
                    </td>
                    <td data-col="state">{!d.lastContactAt ? <Badge>{t('noContact')}</Badge> : silent ? <Badge tone="warn">{t('silent')}</Badge> : <Badge tone="good">{t('inTouch')}</Badge>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
