/**
 * Paying from the wallet (issue #28): one transaction for a wave, reviewed, signed where the keys are.
 * Vocabulary: docs/GLOSSARY.md (carteira da tesouraria, tarifa, transmitir).
 */
export const walletPay = {
  'pt-BR': {
    payWave: 'Pagar a onda com a carteira',
    nothingToPay: 'Nenhum pagamento desta execução está aguardando depósito.',
    building: 'Consultando o serviço e montando a transação…',
    progressStatus: 'Conferindo cada pagamento com o serviço: {{done}} de {{n}}.',
    buildingLong:
      'Montando uma transação com {{n}} pagamentos. A carteira protege cada valor com uma prova criptográfica, o que leva cerca de {{seconds}} s neste computador; o aplicativo continua respondendo.',
    saveFile: 'Salvar PSET em arquivo',
    saved: 'PSET salva no arquivo escolhido.',
    loadFile: 'Carregar PSET assinada de arquivo',
    showQr: 'Mostrar QR code',
    qrAlt: 'QR code da PSET',
    qrTooLarge:
      'Esta PSET tem {{chars}} caracteres e não cabe em um QR code (máximo de {{max}}). Use o arquivo ou copie o texto.',
    reviewHeading: 'Revise antes de assinar',
    colPayee: 'Favorecido',
    colAmount: 'Valor (R$)',
    colDepix: 'DePix',
    colAddress: 'Endereço de depósito',
    colDeadline: 'Prazo',
    total: 'Total: {{amount}}',
    fee: 'Tarifa da rede: {{fee}}',
    after: 'Saldo depois: {{depix}} · {{lbtc}}',
    exportHeading: 'Levar para o assinador',
    exportHelp:
      'Copie a PSET abaixo para a carteira que guarda as chaves (Blockstream App/Jade, Elements, LWK) e traga de volta a PSET assinada.',
    copy: 'Copiar PSET',
    importLabel: 'PSET assinada',
    import: 'Carregar PSET assinada',
    missing:
      'Assinatura carregada. Ainda faltam assinaturas de {{n}} assinante(s): exporte de novo para o próximo.',
    signSandbox: 'Assinar com a carteira do Sandbox',
    broadcast: 'Transmitir',
    cancel: 'Cancelar esta transação',
    signed: 'Assinada e conferida: é a transação revisada.',
    recorded: 'Transmitida. Pagamentos marcados como enviados com a transação {{txid}}.',
    cancelled: 'Transação cancelada: os pagamentos podem entrar em outra.',
    jade: {
      button: 'Assinar com a Jade (USB)',
      help: 'Conecte a Jade por USB, desbloqueie-a com o PIN e confira no visor cada pagamento antes de confirmar.',
      steps: {
        choosing: 'Escolha a Jade na janela que se abriu.',
        loading: 'Preparando a comunicação com a Jade…',
        connecting: 'Conectando à Jade…',
        unlocking:
          'Digite o PIN na Jade. O desbloqueio passa pelo servidor de PIN da Blockstream; o PIN não sai do aparelho.',
        checking: 'Conferindo se esta Jade guarda a chave da carteira…',
        confirm_on_device: 'Confira na Jade cada pagamento, o valor e a tarifa, e confirme no aparelho.',
      },
      errors: {
        no_serial: 'Esta janela não consegue usar portas USB. Use o arquivo ou o texto da PSET.',
        no_device:
          'Nenhuma Jade foi escolhida. Confira se ela está ligada e conectada por USB e tente de novo.',
        not_allowed: 'O aplicativo não tem permissão para usar esta porta USB.',
        load_failed:
          'Não foi possível preparar a comunicação com a Jade. Feche e abra o aplicativo e tente de novo.',
        busy: 'Não foi possível abrir a porta da Jade: feche outros programas que a usem (como o Blockstream App), reconecte o cabo e tente de novo.',
        not_responding: 'A Jade não respondeu. Reconecte o cabo, desbloqueie-a e tente de novo.',
        locked:
          'A Jade não foi desbloqueada: PIN incorreto, desbloqueio cancelado no aparelho, ou o servidor de PIN da Blockstream não respondeu. Tente de novo.',
        uninitialised: 'Esta Jade ainda não tem carteira configurada.',
        wrong_wallet:
          'Esta Jade não guarda a chave da carteira da tesouraria: nada foi enviado a ela. Conecte a Jade certa.',
        refused:
          'A Jade não assinou: a transação foi recusada no aparelho ou não pôde ser assinada. Nada foi transmitido.',
      },
    },
  },
  en: {
    payWave: 'Pay the wave from the wallet',
    nothingToPay: 'No payment of this run is waiting for its deposit.',
    building: 'Asking the service and building the transaction…',
    progressStatus: 'Checking each payment with the service: {{done}} of {{n}}.',
    buildingLong:
      'Building one transaction for {{n}} payments. The wallet protects each amount with a cryptographic proof, which takes about {{seconds}} s on this computer; the app stays responsive.',
    saveFile: 'Save PSET to a file',
    saved: 'PSET saved to the chosen file.',
    loadFile: 'Load signed PSET from a file',
    showQr: 'Show QR code',
    qrAlt: 'PSET QR code',
    qrTooLarge:
      'This PSET has {{chars}} characters and does not fit in a QR code (at most {{max}}). Use the file or copy the text.',
    reviewHeading: 'Review before signing',
    colPayee: 'Payee',
    colAmount: 'Amount (R$)',
    colDepix: 'DePix',
    colAddress: 'Deposit address',
    colDeadline: 'Deadline',
    total: 'Total: {{amount}}',
    fee: 'Network fee: {{fee}}',
    after: 'Balance after: {{depix}} · {{lbtc}}',
    exportHeading: 'Take it to the signer',
    exportHelp:
      'Copy the PSET below to the wallet that holds the keys (Blockstream App/Jade, Elements, LWK) and bring the signed PSET back.',
    copy: 'Copy PSET',
    importLabel: 'Signed PSET',
    import: 'Load signed PSET',
    missing:
      'Signature loaded. Signatures from {{n}} signer(s) still missing: export again for the next one.',
    signSandbox: 'Sign with the Sandbox wallet',
    broadcast: 'Broadcast',
    cancel: 'Cancel this transaction',
    signed: 'Signed and checked: it is the reviewed transaction.',
    recorded: 'Broadcast. Payments marked as sent with transaction {{txid}}.',
    cancelled: 'Transaction cancelled: the payments may go into another one.',
    jade: {
      button: 'Sign with the Jade (USB)',
      help: 'Connect the Jade over USB, unlock it with its PIN and check each payment on its screen before confirming.',
      steps: {
        choosing: 'Choose the Jade in the window that opened.',
        loading: 'Getting ready to talk to the Jade…',
        connecting: 'Connecting to the Jade…',
        unlocking:
          "Enter the PIN on the Jade. Unlocking goes through Blockstream's PIN server; the PIN never leaves the device.",
        checking: 'Checking that this Jade holds the wallet key…',
        confirm_on_device: 'Check each payment, amount and fee on the Jade and confirm on the device.',
      },
      errors: {
        no_serial: 'This window cannot use USB ports. Use the PSET file or text.',
        no_device: 'No Jade was chosen. Check that it is on and connected over USB, and try again.',
        not_allowed: 'The app is not allowed to use this USB port.',
        load_failed: 'Could not get ready to talk to the Jade. Close and reopen the app and try again.',
        busy: 'Could not open the Jade port: close other programs using it (such as the Blockstream App), reconnect the cable and try again.',
        not_responding: 'The Jade did not answer. Reconnect the cable, unlock it and try again.',
        locked:
          "The Jade was not unlocked: wrong PIN, unlocking cancelled on the device, or Blockstream's PIN server did not answer. Try again.",
        uninitialised: 'This Jade has no wallet set up yet.',
        wrong_wallet:
          'This Jade does not hold the treasury wallet key: nothing was sent to it. Connect the right Jade.',
        refused:
          'The Jade did not sign: the transaction was refused on the device or could not be signed. Nothing was broadcast.',
      },
    },
  },
} as const
